/**
 * pymatgen's `LinearAssignment` (materialsproject/pymatgen pymatgen/optimization/linear_assignment.pyx, MIT, unchanged
 * from 2013 through 2022.11.7): Jonker–Volgenant LAPJV (Computing 38, 325–340, 1987) with its epsilon (1e-13) on every
 * comparison of reduced costs, its column order (column reduction from the last column down), the bounded augmenting
 * row reduction (two passes, `nrr < n·k`) and its augmentations. Ported step for step so that, among assignments of
 * equal cost, the one pymatgen returns is the one returned here (the matcher's max_dist and mapping depend on it).
 * Only additions and comparisons: the bits match the compiled Cython on every IEEE 754 machine.
 */

/** Scratch of one problem size: the square cost (rows past nx are pymatgen's zero padding) and LAPJV's arrays. */
export interface LinearAssignmentWorkspace {
  /** Columns (and rows after padding). */
  n: number;
  /** Row-major n × n costs. */
  c: Float64Array;
  /** x[row] = column, y[column] = row. */
  x: Int32Array;
  y: Int32Array;
  col: Int32Array;
  fre: Int32Array;
  pred: Int32Array;
  v: Float64Array;
  d: Float64Array;
}

export function createLinearAssignmentWorkspace(n: number): LinearAssignmentWorkspace {
  return {
    n,
    c: new Float64Array(n * n),
    x: new Int32Array(n),
    y: new Int32Array(n),
    col: new Int32Array(n),
    fre: new Int32Array(n),
    pred: new Int32Array(n),
    v: new Float64Array(n),
    d: new Float64Array(n),
  };
}

/** pymatgen's default `epsilon`. */
const EPS = 1e-13;

/**
 * `LinearAssignment(costs).solution` into `out` (out[row] = column, rows ≤ columns): copies the rows into the
 * workspace's square matrix (zero rows below, as pymatgen pads) and runs `compute`. Returns the minimum cost
 * (`min_cost`, the padded rows adding zero).
 */
export function linearAssignment(costRows: ArrayLike<ArrayLike<number>>, ws: LinearAssignmentWorkspace, out: Int32Array): number {
  const nx = costRows.length,
    n = ws.n;
  if (nx > n) throw new Error('cost matrix must have at least as many columns as rows');
  const c = ws.c;
  for (let i = 0; i < nx; i++) {
    const row = costRows[i];
    if (row.length !== n) throw new Error('cost rows must have the workspace width');
    for (let j = 0; j < n; j++) c[i * n + j] = row[j];
  }
  c.fill(0, nx * n);
  const cost = compute(ws, c);
  for (let i = 0; i < nx; i++) out[i] = ws.x[i];
  return cost;
}

/**
 * `linearAssignment` of a square problem given as one row-major n × n array (n = ws.n), read in place: no padding
 * to add, so the copy is skipped (for a large cell it costs a third of what the assignment itself does).
 */
export function linearAssignmentSquare(costs: Float64Array, ws: LinearAssignmentWorkspace, out: Int32Array): number {
  if (costs.length !== ws.n * ws.n) throw new Error('the cost matrix must be n × n for the workspace');
  const cost = compute(ws, costs);
  for (let i = 0; i < ws.n; i++) out[i] = ws.x[i];
  return cost;
}

/** `compute(size, c, x, y, eps)` of linear_assignment.pyx, line for line (its comments kept where they explain); c is only read. */
function compute(ws: LinearAssignmentWorkspace, c: Float64Array): number {
  const { n, x, y, col, fre, pred, v, d } = ws;
  const eps = EPS;
  let i: number,
    j: number,
    k: number,
    i1: number,
    j1: number,
    j2 = 0,
    f: number,
    f0: number;
  let low: number,
    up: number,
    last = -1,
    nrr: number;
  let h: number,
    m = 0,
    u1: number,
    u2: number;

  for (i = 0; i < n; i++) x[i] = -1;

  // column reduction
  for (j = n - 1; j >= 0; j--) {
    col[j] = j;
    h = c[j];
    i1 = 0;
    for (i = 1; i < n; i++) {
      if (c[i * n + j] < h) {
        h = c[i * n + j];
        i1 = i;
      }
    }
    v[j] = h;
    if (x[i1] === -1) {
      x[i1] = j;
      y[j] = i1;
    } else {
      if (x[i1] > -1) x[i1] = -2 - x[i1];
      y[j] = -1;
    }
  }

  // reduction transfer
  f = -1;
  for (i = 0; i < n; i++) {
    if (x[i] === -1) {
      f += 1;
      fre[f] = i;
    } else if (x[i] < -1) {
      x[i] = -2 - x[i];
    } else {
      j1 = x[i];
      m = 1e300;
      for (j = 0; j < n; j++) {
        if (j !== j1 && c[i * n + j] - v[j] < m) m = c[i * n + j] - v[j];
      }
      v[j1] = v[j1] - m;
    }
  }

  // augmenting row reduction (two passes; nrr bounds the work, as pymatgen does)
  for (let cnt = 0; cnt < 2; cnt++) {
    k = 0;
    f0 = f;
    f = -1;
    nrr = 0;
    while (k <= f0) {
      nrr += 1;
      i = fre[k];
      k += 1;
      u1 = c[i * n] - v[0];
      j1 = 0;
      u2 = 1e300;
      for (j = 1; j < n; j++) {
        h = c[i * n + j] - v[j];
        if (h < u2) {
          if (h >= u1) {
            u2 = h;
            j2 = j;
          } else {
            u2 = u1;
            u1 = h;
            j2 = j1;
            j1 = j;
          }
        }
      }
      i1 = y[j1];
      if (u1 + eps < u2 && nrr < n * k) {
        v[j1] = v[j1] - u2 + u1;
      } else if (i1 > -1 && nrr < n * k) {
        j1 = j2;
        i1 = y[j1];
      }
      if (i1 > -1) {
        if (u1 + eps < u2 && nrr < n * k) {
          k -= 1;
          fre[k] = i1;
        } else {
          f += 1;
          fre[f] = i1;
        }
      }
      x[i] = j1;
      y[j1] = i;
    }
  }

  // augmentation
  f0 = f;
  for (f = 0; f <= f0; f++) {
    i1 = fre[f];
    low = 0;
    up = 0;
    for (j = 0; j < n; j++) {
      d[j] = c[i1 * n + j] - v[j];
      pred[j] = i1;
    }
    // pymatgen goes back to the loop over free rows after each augmentation (the Pascal code ends there).
    for (;;) {
      let found = -1;
      if (up === low) {
        last = low - 1;
        m = d[col[up]];
        up = up + 1;
        for (let kk = up; kk < n; kk++) {
          j = col[kk];
          h = d[j];
          if (h <= m + eps) {
            if (h + eps < m) {
              up = low;
              m = h;
            }
            col[kk] = col[up];
            col[up] = j;
            up = up + 1;
          }
        }
        for (let z = low; z < up; z++) {
          j = col[z];
          if (y[j] === -1) {
            found = j;
            break;
          }
        }
      }
      if (found < 0) {
        j1 = col[low];
        low = low + 1;
        i = y[j1];
        u1 = c[i * n + j1] - v[j1] - m;
        for (let kk = up; kk < n; kk++) {
          j = col[kk];
          h = c[i * n + j] - v[j] - u1;
          if (h + eps < d[j]) {
            d[j] = h;
            pred[j] = i;
            if (Math.abs(h - m) < eps) {
              if (y[j] === -1) {
                found = j;
                break;
              }
              col[kk] = col[up];
              col[up] = j;
              up = up + 1;
            }
          }
        }
      }
      if (found >= 0) {
        // augment: update the duals of the scanned columns, then flip the path back to row i1
        for (k = 0; k <= last; k++) {
          j1 = col[k];
          v[j1] = v[j1] + d[j1] - m;
        }
        j = found;
        for (;;) {
          i = pred[j];
          y[j] = i;
          k = j;
          j = x[i];
          x[i] = k;
          if (i === i1) break;
        }
        break;
      }
    }
  }
  let cost = 0;
  for (i = 0; i < n; i++) cost += c[i * n + x[i]];
  return cost;
}
