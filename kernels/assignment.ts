// pymatgen's LinearAssignment (materialsproject/pymatgen pymatgen/optimization/linear_assignment.pyx, MIT, unchanged
// from 2013 through 2022.11.7): Jonker–Volgenant LAPJV (Computing 38, 325–340, 1987) with its epsilon (1e-13) on every
// comparison of reduced costs, its column order (column reduction from the last column down), the bounded augmenting
// row reduction (two passes, `nrr < n·k`) and its augmentations, ported step for step, so that among assignments of
// equal cost the one pymatgen returns is the one returned here (the matcher's max_dist and mapping depend on it). Only
// additions and comparisons: the bits match the compiled Cython on every IEEE 754 machine. For
// src/core/match/strict-match.ts (on the matcher's workspace) and src/core/match/assignment.ts.

import { getF64, getI32, setF64, setI32 } from './memory';

/** pymatgen's default `epsilon`. */
const EPS: f64 = 1e-13;

// The scratch's arrays (see `assign`) start at ws + 4n·slot: v takes slots 0–1, d 2–3, then one slot per i32 array.
const D = 2,
  X = 4,
  Y = 5,
  COL = 6,
  FRE = 7,
  PRED = 8,
  ODD = 9,
  STAMP = 10,
  IS_ODD = 11;

function scratch(ws: usize, n: i32, slot: i32): usize {
  return ws + <usize>n * 4 * <usize>slot;
}

/** Bytes of scratch `assign` needs for an n × n problem (a multiple of 8). */
export function assignmentScratchBytes(n: i32): i32 {
  return (44 * n + n + 7) & ~7;
}

/** Where `assign` leaves its solution x (x[row] = column, i32 × n) in the scratch at `ws`. */
export function assignmentSolution(ws: usize, n: i32): usize {
  return scratch(ws, n, X);
}

/**
 * Column reduction's minima from the listed entries only, into d (values) and pred (rows): pymatgen scans each column
 * from row 0 down and keeps the first of equal minima, an unlisted entry being `far`. False when a listed entry
 * exceeds `far` (then an unlisted one further down could be the minimum: the caller scans densely).
 */
function sparseColumnMinima(c: usize, n: i32, columns: usize, count: usize, far: f64, d: usize, pred: usize): bool {
  for (let j = 0; j < n; j++) {
    setF64(d, j, far);
    setI32(pred, j, 0);
  }
  for (let i = 0; i < n; i++) {
    const end = i * n + getI32(count, i);
    for (let q = i * n; q < end; q++) {
      const j = getI32(columns, q);
      const h = getF64(c, i * n + j);
      if (h > far) return false;
      if (i == 0 || h < getF64(d, j)) {
        setF64(d, j, h);
        setI32(pred, j, i);
      }
    }
  }
  return true;
}

/**
 * Adds column j to the odd columns (those where far − v[j] does not round to far: a column with no listed entry has
 * v = far; a row whose only near column is its own sends v[j1] down by far), or marks it gone when it rounds again
 * (isOdd: 0 never listed, 1 listed and odd, 2 listed and gone; a column is listed once). Returns the new odd count.
 */
function updateOdd(ws: usize, n: i32, oddCount: i32, far: f64, j: i32): i32 {
  const isOdd = far - getF64(ws, j) != far;
  const flags = scratch(ws, n, IS_ODD) + <usize>j;
  if (load<u8>(flags) == 0) {
    if (!isOdd) return oddCount;
    setI32(scratch(ws, n, ODD), oddCount, j);
    oddCount++;
  }
  store<u8>(flags, isOdd ? 1 : 2);
  return oddCount;
}

/**
 * The reduction transfer's minimum over row i's columns other than j1 of c − v, from its listed entries, the odd
 * columns it does not list, and far when some other unlisted column remains (only the value is kept, so the order
 * of the terms does not matter).
 */
function sparseTransferMinimum(c: usize, ws: usize, n: i32, columns: usize, count: usize, far: f64, oddCount: i32, i: i32, j1: i32): f64 {
  const v = ws,
    stamp = scratch(ws, n, STAMP),
    odd = scratch(ws, n, ODD),
    isOdd = scratch(ws, n, IS_ODD);
  const listed = getI32(count, i);
  let m: f64 = 1e300,
    unlisted = n - listed - 1;
  const end = i * n + listed;
  for (let q = i * n; q < end; q++) {
    const j = getI32(columns, q);
    setI32(stamp, j, i + 1);
    if (j == j1) {
      unlisted++;
      continue;
    }
    const h = getF64(c, i * n + j) - getF64(v, j);
    if (h < m) m = h;
  }
  for (let k = 0; k < oddCount; k++) {
    const j = getI32(odd, k);
    if (load<u8>(isOdd + <usize>j) != 1 || j == j1 || getI32(stamp, j) == i + 1) continue;
    unlisted--;
    const h = far - getF64(v, j);
    if (h < m) m = h;
  }
  return unlisted > 0 && far < m ? far : m;
}

/**
 * pymatgen's LinearAssignment on the row-major n × n f64 costs at `c` (only read). Scratch at `ws` (8-byte aligned,
 * assignmentScratchBytes(n) bytes), laid out as: v f64[n] at ws, d f64[n] at ws+8n, x i32[n] at ws+16n, y i32[n] at ws+20n,
 * col i32[n] at ws+24n, fre i32[n] at ws+28n, pred i32[n] at ws+32n, odd i32[n] at ws+36n, stamp i32[n] at ws+40n,
 * isOdd u8[n] at ws+44n. The solution x (x[row] = column) is left at ws+16n. Returns the minimum cost (sum of c[i][x[i]]).
 * columns == 0: dense reading. Otherwise the sparse reading of linearAssignmentSquare's `FarEntries`: row i's entries that may
 * differ from `far` are the columns listed at i32 columns[i*n .. i*n + count[i]) (count: i32[n] at `count`).
 */
export function assign(n: i32, c: usize, ws: usize, columns: usize, count: usize, far: f64): f64 {
  const v = ws,
    d = scratch(ws, n, D),
    x = scratch(ws, n, X),
    y = scratch(ws, n, Y),
    col = scratch(ws, n, COL),
    fre = scratch(ws, n, FRE),
    pred = scratch(ws, n, PRED);
  const sparse = columns != 0;
  const eps = EPS;
  let i: i32, j: i32, k: i32, i1: i32, j1: i32, f: i32, f0: i32, low: i32, up: i32, nrr: i32;
  let j2: i32 = 0,
    last: i32 = -1;
  let h: f64, u1: f64, u2: f64;
  let m: f64 = 0;

  for (i = 0; i < n; i++) setI32(x, i, -1);

  // column reduction (d and pred hold the sparse minima until the augmentation sets them)
  const sparseMinima = sparse && sparseColumnMinima(c, n, columns, count, far, d, pred);
  for (j = n - 1; j >= 0; j--) {
    setI32(col, j, j);
    if (sparseMinima) {
      h = getF64(d, j);
      i1 = getI32(pred, j);
    } else {
      h = getF64(c, j);
      i1 = 0;
      for (i = 1; i < n; i++) {
        const cij = getF64(c, i * n + j);
        if (cij < h) {
          h = cij;
          i1 = i;
        }
      }
    }
    setF64(v, j, h);
    const xi1 = getI32(x, i1);
    if (xi1 == -1) {
      setI32(x, i1, j);
      setI32(y, j, i1);
    } else {
      if (xi1 > -1) setI32(x, i1, -2 - xi1);
      setI32(y, j, -1);
    }
  }

  // reduction transfer (the sparse path whenever far entries are given, even when the minima were scanned densely)
  let oddCount = 0;
  if (sparse) {
    memory.fill(scratch(ws, n, STAMP), 0, <usize>n * 4);
    memory.fill(scratch(ws, n, IS_ODD), 0, <usize>n);
    for (j = 0; j < n; j++) oddCount = updateOdd(ws, n, oddCount, far, j);
  }
  f = -1;
  for (i = 0; i < n; i++) {
    const xi = getI32(x, i);
    if (xi == -1) {
      f += 1;
      setI32(fre, f, i);
    } else if (xi < -1) {
      setI32(x, i, -2 - xi);
    } else {
      j1 = xi;
      if (sparse) m = sparseTransferMinimum(c, ws, n, columns, count, far, oddCount, i, j1);
      else {
        m = 1e300;
        for (j = 0; j < n; j++) {
          const hj = getF64(c, i * n + j) - getF64(v, j);
          if (j != j1 && hj < m) m = hj;
        }
      }
      setF64(v, j1, getF64(v, j1) - m);
      if (sparse) oddCount = updateOdd(ws, n, oddCount, far, j1);
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
      i = getI32(fre, k);
      k += 1;
      u1 = getF64(c, i * n) - getF64(v, 0);
      j1 = 0;
      u2 = 1e300;
      for (j = 1; j < n; j++) {
        h = getF64(c, i * n + j) - getF64(v, j);
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
      i1 = getI32(y, j1);
      if (u1 + eps < u2 && nrr < n * k) {
        setF64(v, j1, getF64(v, j1) - u2 + u1);
      } else if (i1 > -1 && nrr < n * k) {
        j1 = j2;
        i1 = getI32(y, j1);
      }
      if (i1 > -1) {
        if (u1 + eps < u2 && nrr < n * k) {
          k -= 1;
          setI32(fre, k, i1);
        } else {
          f += 1;
          setI32(fre, f, i1);
        }
      }
      setI32(x, i, j1);
      setI32(y, j1, i);
    }
  }

  // augmentation
  f0 = f;
  for (f = 0; f <= f0; f++) {
    i1 = getI32(fre, f);
    low = 0;
    up = 0;
    for (j = 0; j < n; j++) {
      setF64(d, j, getF64(c, i1 * n + j) - getF64(v, j));
      setI32(pred, j, i1);
    }
    // pymatgen goes back to the loop over free rows after each augmentation (the Pascal code ends there).
    for (;;) {
      let found = -1;
      if (up == low) {
        last = low - 1;
        m = getF64(d, getI32(col, up));
        up = up + 1;
        for (let kk = up; kk < n; kk++) {
          j = getI32(col, kk);
          h = getF64(d, j);
          if (h <= m + eps) {
            if (h + eps < m) {
              up = low;
              m = h;
            }
            setI32(col, kk, getI32(col, up));
            setI32(col, up, j);
            up = up + 1;
          }
        }
        for (let z = low; z < up; z++) {
          j = getI32(col, z);
          if (getI32(y, j) == -1) {
            found = j;
            break;
          }
        }
      }
      if (found < 0) {
        j1 = getI32(col, low);
        low = low + 1;
        i = getI32(y, j1);
        u1 = getF64(c, i * n + j1) - getF64(v, j1) - m;
        for (let kk = up; kk < n; kk++) {
          j = getI32(col, kk);
          h = getF64(c, i * n + j) - getF64(v, j) - u1;
          if (h + eps < getF64(d, j)) {
            setF64(d, j, h);
            setI32(pred, j, i);
            if (abs<f64>(h - m) < eps) {
              if (getI32(y, j) == -1) {
                found = j;
                break;
              }
              setI32(col, kk, getI32(col, up));
              setI32(col, up, j);
              up = up + 1;
            }
          }
        }
      }
      if (found >= 0) {
        // augment: update the duals of the scanned columns, then flip the path back to row i1
        for (k = 0; k <= last; k++) {
          j1 = getI32(col, k);
          setF64(v, j1, getF64(v, j1) + getF64(d, j1) - m);
        }
        j = found;
        for (;;) {
          i = getI32(pred, j);
          setI32(y, j, i);
          k = j;
          j = getI32(x, i);
          setI32(x, i, k);
          if (i == i1) break;
        }
        break;
      }
    }
  }
  let cost: f64 = 0;
  for (i = 0; i < n; i++) cost += getF64(c, i * n + getI32(x, i));
  return cost;
}
