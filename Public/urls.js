// Rowstream URLs (urls.js): query parameters appended to a URL that may already have some. Imported by app.js,
// mount.js and table.js.
//
// Exports
//   withQuery(url, query)              url with an encoded query string (`p.sort=city&p.city=`) appended
//   withParameter(url, name, value)    url with `name=value` appended, the value encoded
//   resumingAfter(url, lastId)         url resuming a stream after event id lastId (`lastEventId=`; '' for none)

/** @param {string} url @param {string} query already encoded; '' leaves the URL as it is @returns {string} */
export function withQuery(url, query) { return query ? url + (url.includes('?') ? '&' : '?') + query : url; }

/** @param {string} url @param {string} name @param {string} value @returns {string} */
export function withParameter(url, name, value) { return withQuery(url, name + '=' + encodeURIComponent(value)); }

/** @param {string} url @param {string} lastId '' for none @returns {string} url, resuming after lastId */
export function resumingAfter(url, lastId) { return lastId ? withParameter(url, 'lastEventId', lastId) : url; }
