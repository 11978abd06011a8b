/**
 * The credentials of the authenticated targets: the server's environment that requires one, and the
 * Authorization header every request of the load (and of the seeding) carries.
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';

export interface Credential {
  env: Record<string, string>;
  authorization: string;
}

/** A static token of the token method, created at start-up from the bootstrap setting. */
export function bearerCredential(): Credential {
  const token = 'bench-token-0123456789abcdef0123456789abcdef';
  return {
    env: {
      ENSIGN_AUTHENTICATION_REQUIRED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: token,
    },
    authorization: `Bearer ${token}`,
  };
}

/**
 * An externally signed JWT: an RS256 key pair made for the run (RS256 being what most identity
 * providers sign with), its public key in `dir` for `authentication.methods.jwt.public_key_file`, and
 * one token valid for the whole run and more, so every request is checked against the same key.
 */
export async function jwtCredential(dir: string): Promise<Credential> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyFile = join(dir, 'jwt-public-key.pem');
  writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
  const token = await new SignJWT({ email: 'bench@example.com' })
    .setProtectedHeader({ alg: 'RS256' })
    .setSubject('http-bench')
    .setIssuedAt()
    .setExpirationTime('1d')
    .sign(privateKey);
  return {
    env: {
      ENSIGN_AUTHENTICATION_REQUIRED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_JWT_ENABLED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_JWT_PUBLIC_KEY_FILE: publicKeyFile,
    },
    authorization: `JWT ${token}`,
  };
}
