export function WhyNoMatch({ explanation }: { explanation: unknown }) {
  return <div className="gen-why">{String(explanation)}</div>;
}
