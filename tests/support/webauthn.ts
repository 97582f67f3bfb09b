// A passkey built by hand for the server tests: an ES256 key pair from
// node:crypto, the 'none' attestation of a registration and the signed
// assertion of a sign-in, as a browser and its authenticator would send
// them (WebAuthn Level 3, §6.1 and §6.5). Every part can be bent (the
// origin, the user-verified flag, the counter) to prove the server refuses it.
import crypto from "node:crypto";

// ---- A tiny CBOR encoder: the few shapes an attestation object needs -------------------------

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function head(major: number, length: number): number[] {
  if (length < 24) return [(major << 5) | length];
  if (length < 0x100) return [(major << 5) | 24, length];
  if (length < 0x10000) return [(major << 5) | 25, length >> 8, length & 0xff];
  return [
    (major << 5) | 26,
    (length >>> 24) & 0xff,
    (length >> 16) & 0xff,
    (length >> 8) & 0xff,
    length & 0xff,
  ];
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === "number")
    return Buffer.from(value >= 0 ? head(0, value) : head(1, -1 - value));
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([Buffer.from(head(3, bytes.length)), bytes]);
  }
  if (value instanceof Uint8Array)
    return Buffer.concat([Buffer.from(head(2, value.length)), value]);
  const parts: Buffer[] = [Buffer.from(head(5, value.size))];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

// ---- The authenticator ------------------------------------------------------------------------

const b64url = (bytes: Uint8Array | string) =>
  Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) =>
  crypto.createHash("sha256").update(data).digest();

export const FLAG_UP = 0x01;
export const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export type Bend = {
  /** The origin the browser would put in clientDataJSON. */
  origin?: string;
  /** The RP ID whose hash starts the authenticator data. */
  rpID?: string;
  /** Whether the authenticator says it verified the user (default yes). */
  userVerified?: boolean;
  /** The counter to sign with, in place of the next one. */
  counter?: number;
  /** Another challenge than the options' (an old one, replayed). */
  challenge?: string;
};

export class TestPasskey {
  readonly credentialId = crypto.randomBytes(16);
  private readonly keys = crypto.generateKeyPairSync("ec", {
    namedCurve: "P-256",
  });
  counter = 0;

  constructor(
    readonly origin: string,
    readonly rpID = new URL(origin).hostname,
  ) {}

  get id() {
    return b64url(this.credentialId);
  }

  private coseKey(): Buffer {
    const jwk = this.keys.publicKey.export({ format: "jwk" });
    return cbor(
      new Map<number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
  }

  private authData(bend: Bend, counter: number, attested: boolean): Buffer {
    const uv = bend.userVerified ?? true;
    const flags = FLAG_UP | (uv ? FLAG_UV : 0) | (attested ? FLAG_AT : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts: Buffer[] = [
      sha256(bend.rpID ?? this.rpID),
      Buffer.from([flags]),
      count,
    ];
    if (attested) {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(this.credentialId.length);
      parts.push(
        Buffer.alloc(16), // AAGUID: none
        idLength,
        Buffer.from(this.credentialId),
        this.coseKey(),
      );
    }
    return Buffer.concat(parts);
  }

  private clientData(
    type: "webauthn.create" | "webauthn.get",
    challenge: string,
    bend: Bend,
  ) {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge: bend.challenge ?? challenge,
        origin: bend.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** The answer to registration options (`navigator.credentials.create`). */
  register(options: { challenge: string }, bend: Bend = {}) {
    const authData = this.authData(bend, this.counter, true);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(
          this.clientData("webauthn.create", options.challenge, bend),
        ),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    };
  }

  /** The answer to sign-in options (`navigator.credentials.get`); the counter moves on. */
  signIn(options: { challenge: string }, bend: Bend = {}) {
    const counter = bend.counter ?? ++this.counter;
    const authData = this.authData(bend, counter, false);
    const clientDataJSON = this.clientData(
      "webauthn.get",
      options.challenge,
      bend,
    );
    const signature = crypto.sign(
      "sha256",
      Buffer.concat([authData, sha256(clientDataJSON)]),
      this.keys.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
    };
  }
}
