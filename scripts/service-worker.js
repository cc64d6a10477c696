// The lab's service worker, written into dist/sw.js at build time by the structlab-offline plugin
// (vite.config.ts), which puts `const VERSION` and `const PRECACHE` (every file of the build) before this text.
// Installing caches the whole lab, so it opens and works offline; file names carry content hashes, so a cached
// file never goes stale, and a new build (a new VERSION) installs a new cache and deletes the old one.
/* global self, caches, VERSION, PRECACHE */
const CACHE = `structlab-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('structlab-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  // Every navigation is the one page of the lab (routes live in the hash; queries such as ?fresh change no file).
  // Vary is ignored: the cache was filled without an Origin header, which module scripts and workers send.
  const options = { cacheName: CACHE, ignoreVary: true, ignoreSearch: request.mode === 'navigate' };
  const cached = caches.match(request.mode === 'navigate' ? './' : request, options);
  event.respondWith(cached.then((hit) => hit ?? fetch(request)));
});
