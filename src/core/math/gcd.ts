/** Greatest common divisor of two integers (non-negative; gcd(0, 0) = 0). */
export function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}
