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
  /** The sparse reduction transfer's scratch: columns where far − v does not round to far, and row stamps. */
  odd: Int32Array;
  isOdd: Uint8Array;
  stamp: Int32Array;
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
    odd: new Int32Array(n),
    isOdd: new Uint8Array(n),
    stamp: new Int32Array(n),
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
 * Where a square cost matrix may differ from one value `far`: row i's other entries lie among the columns
 * `columns[i·n .. i·n + count[i])`, each listed once (the matcher's squared distances: 1e20 outside the box, a few
 * entries per row of a large cell inside it).
 */
export interface FarEntries {
  columns: Int32Array;
  count: Int32Array;
  far: number;
}

/**
 * `linearAssignment` of a square problem given as one row-major n × n array (n = ws.n), read in place: no padding
 * to add, so the copy is skipped (for a large cell it costs a third of what the assignment itself does). With
 * `sparse`, the column reduction and the reduction transfer read only the listed entries (the same numbers as
 * reading all of them, see `compute`).
 */
export function linearAssignmentSquare(costs: Float64Array, ws: LinearAssignmentWorkspace, out: Int32Array, sparse?: FarEntries): number {
  if (costs.length !== ws.n * ws.n) throw new Error('the cost matrix must be n × n for the workspace');
  const cost = compute(ws, costs, sparse);
  for (let i = 0; i < ws.n; i++) out[i] = ws.x[i];
  return cost;
}

/**
 * Column reduction's minima from the listed entries only, into d (values) and pred (rows): pymatgen scans each column
 * from row 0 down and keeps the first of equal minima, an unlisted entry being `far`. False when a listed entry
 * exceeds `far` (then an unlisted one further down could be the minimum: the caller scans densely).
 */
function sparseColumnMinima(c: Float64Array, n: number, sparse: FarEntries, d: Float64Array, pred: Int32Array): boolean {
  const { columns, count, far } = sparse;
  d.fill(far);
  pred.fill(0);
  for (let i = 0; i < n; i++) {
    for (let q = i * n; q < i * n + count[i]; q++) {
      const j = columns[q];
      const h = c[i * n + j];
      if (h > far) return false;
      if (i === 0 || h < d[j]) {
        d[j] = h;
        pred[j] = i;
      }
    }
  }
  return true;
}

/**
 * The sparse reduction transfer's view of v: the columns where far − v[j] does not round back to far (a column with no
 * listed entry has v = far; a row whose only near column is its own sends v[j1] down by far), listed in `ws.odd`;
 * every other unlisted entry of a row gives exactly far. `ws.isOdd` says which listed columns still are (a column may
 * leave the set).
 */
interface OddColumns {
  count: number;
}

/**
 * Adds column j to the odd columns when far − v[j] does not round to far, or marks it gone when it does again
 * (`isOdd`: 0 never listed, 1 listed and odd, 2 listed and gone; a column is listed once).
 */
function updateOdd(ws: LinearAssignmentWorkspace, odd: OddColumns, far: number, j: number): void {
  const isOdd = far - ws.v[j] !== far;
  if (ws.isOdd[j] === 0) {
    if (!isOdd) return;
    ws.odd[odd.count++] = j;
  }
  ws.isOdd[j] = isOdd ? 1 : 2;
}

/**
 * The reduction transfer's minimum over row i's columns other than j1 of c − v, from its listed entries, the odd
 * columns it does not list, and far when some other unlisted column remains (only the value is kept, so the order
 * of the terms does not matter).
 */
function sparseTransferMinimum(
  c: Float64Array,
  ws: LinearAssignmentWorkspace,
  sparse: FarEntries,
  odd: OddColumns,
  i: number,
  j1: number,
): number {
  const { n, v, stamp } = ws;
  const { columns, count, far } = sparse;
  let m = 1e300,
    unlisted = n - count[i] - 1;
  for (let q = i * n; q < i * n + count[i]; q++) {
    const j = columns[q];
    stamp[j] = i + 1;
    if (j === j1) {
      unlisted++;
      continue;
    }
    const h = c[i * n + j] - v[j];
    if (h < m) m = h;
  }
  for (let k = 0; k < odd.count; k++) {
    const j = ws.odd[k];
    if (ws.isOdd[j] !== 1 || j === j1 || stamp[j] === i + 1) continue;
    unlisted--;
    const h = far - v[j];
    if (h < m) m = h;
  }
  return unlisted > 0 && far < m ? far : m;
}

/**
 * `compute(size, c, x, y, eps)` of linear_assignment.pyx, line for line (its comments kept where they explain); c is
 * only read. With `sparse`, the column reduction's minima and the reduction transfer's minima come from the listed
 * entries when that gives the same numbers (see the helpers above); the minima are values, except the column
 * reduction's row, which is the first row of the minimum either way.
 */
function compute(ws: LinearAssignmentWorkspace, c: Float64Array, sparse?: FarEntries): number {
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

  // column reduction (d and pred hold the sparse minima until the augmentation sets them)
  const sparseMinima = sparse !== undefined && sparseColumnMinima(c, n, sparse, d, pred);
  for (j = n - 1; j >= 0; j--) {
    col[j] = j;
    if (sparseMinima) {
      h = d[j];
      i1 = pred[j];
    } else {
      h = c[j];
      i1 = 0;
      for (i = 1; i < n; i++) {
        if (c[i * n + j] < h) {
          h = c[i * n + j];
          i1 = i;
        }
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
  const odd: OddColumns = { count: 0 };
  if (sparse) {
    ws.stamp.fill(0);
    ws.isOdd.fill(0);
    for (j = 0; j < n; j++) updateOdd(ws, odd, sparse.far, j);
  }
  f = -1;
  for (i = 0; i < n; i++) {
    if (x[i] === -1) {
      f += 1;
      fre[f] = i;
    } else if (x[i] < -1) {
      x[i] = -2 - x[i];
    } else {
      j1 = x[i];
      if (sparse) m = sparseTransferMinimum(c, ws, sparse, odd, i, j1);
      else {
        m = 1e300;
        for (j = 0; j < n; j++) {
          if (j !== j1 && c[i * n + j] - v[j] < m) m = c[i * n + j] - v[j];
        }
      }
      v[j1] = v[j1] - m;
      if (sparse) updateOdd(ws, odd, sparse.far, j1);
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
