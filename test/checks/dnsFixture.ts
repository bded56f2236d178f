import dns2 from 'dns2';

const { Packet } = dns2;
// RFC 1035 response codes (the package's typings omit its RCODE table).
export const RCODE = { SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

/** Records of one name in the fixture zone; a name absent from the zone answers NXDOMAIN. */
export interface FixtureName {
  A?: string[];
  AAAA?: string[];
  MX?: { exchange: string; priority: number }[];
  NS?: string[];
  /** Answer every question about this name with this response code instead (2 SERVFAIL, 5 REFUSED). */
  rcode?: number;
}

export interface DnsFixture {
  /** `127.0.0.1:port`, for `setServers`. */
  server: string;
  close(): Promise<void>;
}

/**
 * A real DNS server on loopback (UDP, port chosen by the OS) answering from
 * a fixture zone, or never answering at all when `silent` is set.
 */
export async function startDnsFixture(
  zone: Record<string, FixtureName>,
  options: { silent?: boolean; onQuestion?: (name: string) => void } = {},
): Promise<DnsFixture> {
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const asked = request.questions[0]?.name;
      if (asked !== undefined) options.onQuestion?.(asked.toLowerCase());
      if (options.silent) return;
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const entry = question === undefined ? undefined : zone[question.name.toLowerCase()];
      if (question === undefined || entry === undefined) {
        response.header.rcode = RCODE.NXDOMAIN;
      } else if (entry.rcode !== undefined) {
        response.header.rcode = entry.rcode;
      } else {
        response.answers.push(...answersFor(question, entry));
      }
      // A send that fails rejects unhandled, and vitest fails the run on it.
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { server: `127.0.0.1:${addresses.udp!.port}`, close: () => server.close() };
}

function answersFor(question: dns2.Packet.Question, entry: FixtureName): dns2.Packet.Resource[] {
  const base = { name: question.name, class: Packet.CLASS.IN, ttl: 60 };
  switch (question.type) {
    case Packet.TYPE.A:
      return (entry.A ?? []).map((address) => ({ ...base, type: Packet.TYPE.A, address }) as dns2.Packet.Resource);
    case Packet.TYPE.AAAA:
      return (entry.AAAA ?? []).map((address) => ({ ...base, type: Packet.TYPE.AAAA, address }) as dns2.Packet.Resource);
    case Packet.TYPE.MX:
      return (entry.MX ?? []).map((mx) => ({ ...base, type: Packet.TYPE.MX, ...mx }) as dns2.Packet.Resource);
    case Packet.TYPE.NS:
      return (entry.NS ?? []).map((ns) => ({ ...base, type: Packet.TYPE.NS, ns }) as dns2.Packet.Resource);
    default:
      return [];
  }
}
