// Rowstream URLs (urls.js): query parameters appended to a URL that may already have some. Imported by app.js
// and table.js.
//
// Exports
//   withQuery(url, query)              url with an encoded query string (`p.sort=city&p.city=`) appended
//   withParameter(url, name, value)    url with `name=value` appended, the value encoded

/** @param {string} url @param {string} query already encoded; '' leaves the URL as it is @returns {string} */
export function withQuery(url, query) { return query ? url + (url.includes('?') ? '&' : '?') + query : url; }

/** @param {string} url @param {string} name @param {string} value @returns {string} */
export function withParameter(url, name, value) { return withQuery(url, name + '=' + encodeURIComponent(value)); }
