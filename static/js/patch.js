// View patches (docs/protocol.md, "Patches"; the server's app/tables/patch.py): an object patches an object key by
// key and a list element by element ("0", "1", ... keys; one past the end appends), then cuts the list to "$len"
// elements if given; `null` is a value; keys listed under "$del" go; {"$value": x} replaces outright. Returns a new
// value; the old one is not changed.
export function applyPatch(value, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  if ('$value' in patch) return patch.$value;
  if (Array.isArray(value)) {
    const result = value.slice();
    // Index keys iterate in increasing order (JavaScript orders integer keys so), so appends come in order.
    for (const [index, part] of Object.entries(patch)) {
      if (index !== '$len') result[Number(index)] = applyPatch(result[Number(index)], part);
    }
    if ('$len' in patch) result.length = patch.$len;
    return result;
  }
  const result = value !== null && typeof value === 'object' ? { ...value } : {};
  for (const [key, part] of Object.entries(patch)) {
    if (key === '$del') {
      for (const gone of part) delete result[gone];
    } else if (part !== null && typeof part === 'object' && !Array.isArray(part)
        && result[key] !== null && typeof result[key] === 'object') {
      result[key] = applyPatch(result[key], part);
    } else {
      result[key] = part;
    }
  }
  return result;
}
