/** C2NP teaching view: carve a nanoparticle from a crystal and watch the crystal → particle transition. */
export function NanoparticlePage() {
  return (
    <main className="page-placeholder" data-testid="nanoparticle-page">
      <h2>Nanoparticle</h2>
      <p>The crystal → nanoparticle teaching view is being built.</p>
    </main>
  );
}
