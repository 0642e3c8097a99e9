import { agentctlChannel, IP_TARGET_SERVER_NAME, isTlsFailure, tlsFailureMessage } from './channel-credentials';

// Details as grpc-js reports them (copied from real handshakes against agentctl).
const WRONG_CA =
  'No connection established. Last error: Error: unable to verify the first certificate. Resolution note: ';
const NO_CLIENT_CERT =
  'No connection established. Last error: 80FCE2718B7F0000:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 116\n (2026-12-01T16:57:58.123Z). Resolution note: ';
const WRONG_NAME =
  "No connection established. Last error: Error [ERR_TLS_CERT_ALTNAME_INVALID]: Hostname/IP does not match certificate's altnames: Host: nope.test. is not in the cert's altnames: DNS:localhost. Resolution note: ";
const PLAINTEXT_SERVER =
  'No connection established. Last error: Error: 80FC42865C7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n. Resolution note: ';
const REFUSED =
  'No connection established. Last error: Failed to connect (2026-12-01T16:57:57.946Z). Resolution note: ';

describe('TLS failures', () => {
  test('handshake and verification failures are recognised; a refused connection is not', () => {
    expect([WRONG_CA, NO_CLIENT_CERT, WRONG_NAME, PLAINTEXT_SERVER].map(isTlsFailure)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(isTlsFailure(REFUSED)).toBe(false);
  });

  test('the message names the agentctl and says what is wrong, without grpc-js wrapping', () => {
    expect(tlsFailureMessage('10.0.0.8:7421', WRONG_CA)).toBe(
      "TLS verification failed against agentctl at 10.0.0.8:7421: agentctl's certificate is not signed by the configured CA (unable to verify the first certificate)",
    );
    expect(tlsFailureMessage('10.0.0.8:7421', NO_CLIENT_CERT)).toBe(
      'TLS verification failed against agentctl at 10.0.0.8:7421: agentctl requires a client certificate (mutual TLS) and none was sent (tlsv13 alert certificate required, SSL alert number 116)',
    );
    expect(tlsFailureMessage('h:1', WRONG_NAME)).toMatch(/does not name the dialled host \(set server_name\)/);
    expect(tlsFailureMessage('h:1', PLAINTEXT_SERVER)).toBe(
      'TLS verification failed against agentctl at h:1: agentctl does not serve TLS on this port (plaintext?) (wrong version number)',
    );
  });
});

describe('agentctlChannel', () => {
  const ca = Buffer.from('-----BEGIN CERTIFICATE-----\n');

  test('plaintext without TLS settings; a server name overrides the verified name and authority', () => {
    expect(agentctlChannel('10.0.0.8:7421', undefined, { a: 1 }).options).toEqual({ a: 1 });
    expect(agentctlChannel('10.0.0.8:7421', { ca, serverName: 'agentctl.test' }).options).toEqual({
      'grpc.ssl_target_name_override': 'agentctl.test',
      'grpc.default_authority': 'agentctl.test',
    });
    expect(agentctlChannel('h:1', { ca }).credentials._isSecure()).toBe(true);
    expect(agentctlChannel('h:1', undefined).credentials._isSecure()).toBe(false);
  });

  test('a host name is sent as the TLS server name; an IP address never is', () => {
    expect(agentctlChannel('agentctl.example:7421', { ca }, { a: 1 }).options).toEqual({ a: 1 });
    for (const address of ['10.0.0.8:7421', '[::1]:7421']) {
      expect(agentctlChannel(address, { ca }, { a: 1 }).options).toEqual({
        a: 1,
        'grpc.ssl_target_name_override': IP_TARGET_SERVER_NAME,
      });
    }
  });
});
