import JSZip from 'jszip';

/**
 * Small real documents for the material tests, written byte by byte so the
 * tests need no office suite: a PDF with one text line per page (optionally
 * encrypted, or claiming thousands of pages), a DOCX with paragraphs, and a
 * ZIP that inflates far past its size.
 */
export function pdf(pages: string[], opts: { encrypted?: boolean; claimedPages?: number; author?: string } = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 0;
  add('<< /Type /Catalog /Pages 2 0 R >>');
  const kids = pages.map((_, i) => `${3 + i * 2} 0 R`).join(' ');
  add(`<< /Type /Pages /Kids [${kids}] /Count ${opts.claimedPages ?? pages.length} >>`);
  const fontRef = 3 + pages.length * 2;
  pages.forEach((text, i) => {
    const content = `BT /F1 12 Tf 72 720 Td (${text.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj ET`;
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + i * 2} 0 R /Resources << /Font << /F1 ${fontRef} 0 R >> >> >>`,
    );
    add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  });
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const infoRef = opts.author ? add(`<< /Author (${opts.author}) >>`) && objects.length : null;
  // A standard security handler whose check value matches no password: a reader must ask for one.
  const encryptRef = opts.encrypted
    ? add(`<< /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >>`) && objects.length
    : null;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  const extras = [
    infoRef ? `/Info ${infoRef} 0 R` : '',
    encryptRef ? `/Encrypt ${encryptRef} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]` : '',
  ].join(' ');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${extras} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A Word document with these paragraphs and, when given, its core and app properties (docProps/). */
export async function docx(
  paragraphs: string[],
  props: { creator?: string; lastModifiedBy?: string; application?: string } = {},
): Promise<Buffer> {
  const zip = new JSZip();
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  if (props.creator !== undefined || props.lastModifiedBy !== undefined) {
    zip.file(
      'docProps/core.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
        (props.creator !== undefined ? `<dc:creator>${escape(props.creator)}</dc:creator>` : '') +
        (props.lastModifiedBy !== undefined ? `<cp:lastModifiedBy>${escape(props.lastModifiedBy)}</cp:lastModifiedBy>` : '') +
        '<dcterms:created xsi:type="dcterms:W3CDTF">2026-11-20T09:00:00Z</dcterms:created></cp:coreProperties>',
    );
  }
  if (props.application !== undefined) {
    zip.file(
      'docProps/app.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">' +
        `<Application>${escape(props.application)}</Application><Pages>1</Pages></Properties>`,
    );
  }
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
      paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${escape(p)}</w:t></w:r></w:p>`).join('') +
      '</w:body></w:document>',
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A ZIP of `megabytes` of zeros: a few kilobytes that inflate a thousandfold. */
export async function zipBomb(megabytes: number): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('word/document.xml', Buffer.alloc(megabytes * 1024 * 1024));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** A WAV file of silence (16-bit mono, 8 kHz) with a RIFF INFO list naming its artist, software and creation date. */
export function wav(seconds: number, info: { artist?: string; software?: string; created?: string } = {}): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * 2 * seconds);
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0);
  fmt.writeUInt16LE(1, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE(rate * 2, 8);
  fmt.writeUInt16LE(2, 12);
  fmt.writeUInt16LE(16, 14);
  const chunk = (id: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'latin1');
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body, body.length % 2 === 1 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  };
  const text = (s: string) => Buffer.from(`${s}\u0000`, 'latin1');
  const tags = [
    ['IART', info.artist],
    ['ISFT', info.software],
    ['ICRD', info.created],
  ].filter((t): t is [string, string] => t[1] !== undefined);
  const list =
    tags.length > 0 ? [chunk('LIST', Buffer.concat([Buffer.from('INFO', 'latin1'), ...tags.map(([id, v]) => chunk(id, text(v)))]))] : [];
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), chunk('fmt ', fmt), ...list, chunk('data', data)]);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from(new Uint32Array([body.length]).buffer), body]);
}

const isoBox = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const u32 = (...values: number[]) => {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, i * 4));
  return b;
};
const IDENTITY_MATRIX = u32(0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000);

/** One track of an ISO media file: its header, media header (millisecond time scale), handler and one sample description. */
function isoTrack(id: number, handler: 'vide' | 'soun', sampleEntry: Buffer, since1904: number, ms: number): Buffer {
  const tkhd = Buffer.concat([u32(3, since1904, since1904, id, 0, ms, 0, 0, 0), Buffer.alloc(4), IDENTITY_MATRIX, u32(0, 0)]);
  const mdhd = Buffer.concat([u32(0, since1904, since1904, 1000, ms), Buffer.from([0x55, 0xc4, 0, 0])]);
  const hdlr = Buffer.concat([u32(0, 0), Buffer.from(handler, 'latin1'), u32(0, 0, 0), Buffer.from('handler\u0000', 'latin1')]);
  const stbl = isoBox(
    'stbl',
    isoBox('stsd', u32(0, 1), sampleEntry),
    isoBox('stts', u32(0, 0)),
    isoBox('stsc', u32(0, 0)),
    isoBox('stsz', u32(0, 0, 0)),
    isoBox('stco', u32(0, 0)),
  );
  return isoBox('trak', isoBox('tkhd', tkhd), isoBox('mdia', isoBox('mdhd', mdhd), isoBox('hdlr', hdlr), isoBox('minf', stbl)));
}

/**
 * A minimal MP4 video (ISO base media): a movie header with its creation
 * time, an H.264 video track and an AAC audio track of `seconds`, no samples,
 * and the encoding tool in an iTunes-style `©too` tag, as phones and ffmpeg write it.
 */
export function mp4(seconds: number, info: { created: string; tool?: string }): Buffer {
  const since1904 = Math.floor(Date.parse(info.created) / 1000) + 2_082_844_800;
  const ms = seconds * 1000;
  const ftyp = isoBox('ftyp', Buffer.from('isom', 'latin1'), u32(512), Buffer.from('isomiso2mp41', 'latin1'));
  const mvhd = Buffer.concat([
    u32(0, since1904, since1904, 1000, ms, 0x00010000),
    Buffer.from([1, 0]),
    Buffer.alloc(10),
    IDENTITY_MATRIX,
    Buffer.alloc(24),
    u32(3),
  ]);
  const avc1 = isoBox(
    'avc1',
    Buffer.alloc(6),
    Buffer.from([0, 1]),
    Buffer.alloc(16),
    Buffer.from([1, 64, 0, 240]),
    u32(0x00480000, 0x00480000, 0),
    Buffer.from([0, 1]),
    Buffer.alloc(32),
    Buffer.from([0, 24, 0xff, 0xff]),
  );
  const mp4a = isoBox(
    'mp4a',
    Buffer.alloc(6),
    Buffer.from([0, 1]),
    Buffer.alloc(8),
    Buffer.from([0, 2, 0, 16, 0, 0, 0, 0]),
    u32(48_000 * 65_536),
  );
  const tags =
    info.tool === undefined
      ? []
      : [
          isoBox(
            'udta',
            isoBox(
              'meta',
              u32(0),
              isoBox('hdlr', u32(0, 0), Buffer.from('mdirappl', 'latin1'), u32(0, 0), Buffer.from([0])),
              isoBox('ilst', isoBox('\u00a9too', isoBox('data', u32(1, 0), Buffer.from(info.tool, 'utf8')))),
            ),
          ),
        ];
  return Buffer.concat([
    ftyp,
    isoBox('moov', isoBox('mvhd', mvhd), isoTrack(1, 'vide', avc1, since1904, ms), isoTrack(2, 'soun', mp4a, since1904, ms), ...tags),
  ]);
}
