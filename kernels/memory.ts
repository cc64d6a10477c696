// Element access to the arrays callers lay out in the kernels' memory: `base` is a byte offset, `i` an element index.

export function getI32(base: usize, i: i32): i32 {
  return load<i32>(base + ((<usize>i) << 2));
}

export function setI32(base: usize, i: i32, v: i32): void {
  store<i32>(base + ((<usize>i) << 2), v);
}

export function getF64(base: usize, i: i32): f64 {
  return load<f64>(base + ((<usize>i) << 3));
}

export function setF64(base: usize, i: i32, v: f64): void {
  store<f64>(base + ((<usize>i) << 3), v);
}
