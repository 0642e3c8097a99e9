// Certificates made by the test at run time (no openssl on CI machines): a CA, a server certificate
// for agentctl (valid for localhost, 127.0.0.1 and ::1) and a client certificate for the backend, all
// signed by that CA, written as PEM files into a temporary directory.
import { webcrypto } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// @peculiar/x509 resolves its ASN.1 providers through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import type { Cleanup } from './cleanup';
import { tempDir } from './processes';

x509.cryptoProvider.set(webcrypto);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

/** PEM file paths of one test PKI. */
export interface TestPki {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

function keyPair(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
}

async function privateKeyPem(keys: webcrypto.CryptoKeyPair): Promise<string> {
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return x509.PemConverter.encode(pkcs8, 'PRIVATE KEY');
}

const validity = () => ({
  notBefore: new Date(Date.now() - 60_000),
  notAfter: new Date(Date.now() + 24 * 3600_000),
});

/** A fresh CA with a server and a client certificate, written under a temporary directory. */
export async function createTestPki(cleanup: Cleanup, name = 'kandev-test'): Promise<TestPki> {
  const caKeys = await keyPair();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name} CA`,
    keys: caKeys,
    signingAlgorithm: ALG,
    ...validity(),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const leaf = async (cn: string, usage: x509.ExtendedKeyUsage, san: x509.JsonGeneralName[]) => {
    const keys = await keyPair();
    const cert = await x509.X509CertificateGenerator.create({
      subject: `CN=${cn}`,
      issuer: ca.subject,
      publicKey: keys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: ALG,
      ...validity(),
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
        new x509.ExtendedKeyUsageExtension([usage]),
        ...(san.length > 0 ? [new x509.SubjectAlternativeNameExtension(san)] : []),
        await x509.AuthorityKeyIdentifierExtension.create(ca),
      ],
    });
    return { cert: cert.toString('pem'), key: await privateKeyPem(keys) };
  };
  const server = await leaf('agentctl', x509.ExtendedKeyUsage.serverAuth, [
    { type: 'dns', value: 'localhost' },
    { type: 'dns', value: 'agentctl.test' },
    { type: 'ip', value: '127.0.0.1' },
    { type: 'ip', value: '::1' },
  ]);
  const client = await leaf('kandev-backend', x509.ExtendedKeyUsage.clientAuth, []);
  const dir = tempDir(cleanup);
  const write = (file: string, pem: string): string => {
    const path = join(dir, file);
    writeFileSync(path, pem, { mode: 0o644 });
    return path;
  };
  return {
    dir,
    caCert: write('ca.pem', ca.toString('pem')),
    serverCert: write('server.pem', server.cert),
    serverKey: write('server-key.pem', server.key),
    clientCert: write('client.pem', client.cert),
    clientKey: write('client-key.pem', client.key),
  };
}
