/** The README.md every bundle carries: how to verify it without the service's code. */
export const VERIFYING_README = `# Evidentiary bundle of a case

This archive was written by the trust assessment service when the case was
exported after sign-off. Every file is listed in \`manifest.json\` with its
SHA-256 and size in bytes; \`manifest.sig\` is the raw 64-byte Ed25519
signature over the exact bytes of \`manifest.json\`, made with the key whose id
is the manifest's \`kid\`.

To verify, with nothing but the bundle and the service's published keys
(\`/.well-known/tas-export-keys.json\`, a JWKS; keys that were rotated out stay
listed):

1. Find the key in the JWKS whose \`kid\` equals the manifest's \`kid\`
   (\`kty\` OKP, \`crv\` Ed25519, \`x\` the base64url public key).
2. Check the signature in \`manifest.sig\` over the bytes of \`manifest.json\`.
3. For every entry of \`files\`, check that the file exists, has \`size\` bytes
   and that its SHA-256 (hex) is \`sha256\`; and that no other file is present
   besides \`manifest.json\` and \`manifest.sig\`.

\`tas export verify BUNDLE [--keys FILE|URL]\` does exactly this and names the
file or signature that fails.

Files: \`case.json\` (the case), \`timeline.json\` (its events in order),
\`graph.json\`, \`assessments.json\` (every assessment of the case's entities
with its scoring inputs, enough for \`tas score\` to reproduce it),
\`observations.json\`, \`material.json\` (hashes and extractions with their
bindings), \`audit.json\` (the case's audit rows with their chain links).
When the export was asked as \`bundle_with_bytes\`, \`material/<sha256>\` holds
the bytes of each piece of material that retention kept, named by their
SHA-256, so the name itself can be checked against the content.
`;
