// Rowstream tunables (config.js): the page's defaults, which an embedder overrides with window.RowstreamConfig
// (read once, by app.js). Imported by app.js; its type by table.js and post.js.
//
// Exports
//   defaults  the Config below

/** @typedef {{prefetchMargin: number, skeletonRows: number, maxRows: number, pruneMargin: number,
 *             postTimeout: number, postAttempts: number, postBackoff: number, postBackoffCap: number,
 *             credentials: RequestCredentials, hiddenGrace: number, restorePlace: boolean}} Config */

/** @type {Config} Tunables: pixels below the visible area that trigger a prefetch; skeleton rows per
 *  pending batch (0 = as many as the server rendered at first paint); real rows kept in the DOM at most
 *  per table (0 = no limit; prune.js replaces batches far from view by spacers and fetches them again);
 *  pixels around the visible area where pruned batches are fetched again (twice that is never pruned);
 *  demand POSTs (post.js): ms without an answer before one is aborted, attempts in all, the backoff's base
 *  and cap in ms (each wait is random, up to base × 2^retry, at most the cap); the `credentials` of the table's
 *  fetches (`include` only for an embedded table of a server that allows them, docs/EMBED.md); ms a hidden tab
 *  keeps its stream before it lets it go (visibility.js; negative: never); whether Back, Forward and Reload bring
 *  the rows and the scroll position back (history.js). */
export const defaults = Object.freeze({ prefetchMargin: 800, skeletonRows: 0, maxRows: 2000, pruneMargin: 1200,
  postTimeout: 10000, postAttempts: 6, postBackoff: 500, postBackoffCap: 8000,
  credentials: /** @type {RequestCredentials} */ ('same-origin'), hiddenGrace: 3000, restorePlace: true });
