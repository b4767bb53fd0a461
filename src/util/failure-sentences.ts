import { quoteArg } from './error-text.ts';

/**
 * System and library failures as sentences a model can act on. Node hands us
 * `ENAMETOOLONG: name too long, lstat '…'`, OpenSSL's `unable to verify the first
 * certificate`, a WebAssembly trap; the model needs what was wrong and what to
 * do. One table per family, keyed by the stable `code` (never the message text,
 * which changes between Node versions), walked down an error's `cause` chain.
 */

type CodedError = Error & {
  code?: unknown;
  syscall?: string;
  path?: string;
  dest?: string;
  hostname?: string;
  address?: string;
  port?: number;
  host?: string;
};

/** A sentence for a failure whose code we know, or undefined (the caller then shows the message as it is). */
export function describeFailure(err: unknown): string | undefined {
  for (const e of causeChain(err)) {
    if (typeof e.code !== 'string') continue;
    const tls = tlsSentence(e.code);
    const sentence =
      tls !== undefined ? `${tls} (${e.code})` : (networkSentence(e.code, e) ?? errnoSentence(e.code, e) ?? nodeSentence(e.code));
    if (sentence !== undefined) return sentence;
  }
  return undefined;
}

/** The error and its causes, outermost first (undici nests the real reason two or three deep). */
export function causeChain(err: unknown): CodedError[] {
  const out: CodedError[] = [];
  let e: unknown = err;
  for (let depth = 0; depth < 8 && e instanceof Error; depth++) {
    out.push(e as CodedError);
    // A connect to several addresses fails with an AggregateError of each attempt: the first says why.
    e = e.cause ?? (e instanceof AggregateError ? e.errors[0] : undefined);
  }
  return out;
}

const OPERATOR_TRUST =
  'if the operator trusts this server, they can add its CA certificate with NODE_EXTRA_CA_CERTS; there is nothing to change in the call';

/** TLS (OpenSSL) verification and handshake failures, by Node's code. */
export function tlsSentence(code: string): string | undefined {
  switch (code) {
    case 'CERT_HAS_EXPIRED':
      return "the server's TLS certificate has expired, so the connection was refused; the server needs a renewed certificate (there is nothing to change in the call)";
    case 'CERT_NOT_YET_VALID':
      return "the server's TLS certificate is not valid yet (its start date is in the future: check the server's certificate or the clocks)";
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return `the server presented a self-signed TLS certificate, which is not trusted; ${OPERATOR_TRUST}`;
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return `the server's TLS certificate chain ends in a self-signed CA that is not trusted; ${OPERATOR_TRUST}`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return `the server's TLS certificate is signed by a CA that is not trusted, or the server does not send its intermediate certificates; ${OPERATOR_TRUST}`;
    case 'CERT_REVOKED':
      return "the server's TLS certificate has been revoked; do not use this server";
    case 'CERT_SIGNATURE_FAILURE':
    case 'CERT_UNTRUSTED':
    case 'CERT_REJECTED':
    case 'INVALID_CA':
    case 'INVALID_PURPOSE':
    case 'CERT_CHAIN_TOO_LONG':
    case 'PATH_LENGTH_EXCEEDED':
      return `the server's TLS certificate could not be verified (${code}); ${OPERATOR_TRUST}`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return "the server's TLS certificate is issued for other host names, not this one; use the host name the certificate names";
    case 'ERR_TLS_HANDSHAKE_TIMEOUT':
      return 'the TLS handshake with the server timed out; retry later, or check that the port serves HTTPS';
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
    case 'ERR_SSL_HTTP_REQUEST':
      return 'the server did not answer in TLS: this port probably serves plain HTTP; use its HTTPS port, or an http:// URL where plain HTTP is allowed for this host';
    case 'ERR_SSL_UNSUPPORTED_PROTOCOL':
    case 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION':
    case 'ERR_SSL_VERSION_TOO_LOW':
      return 'the server only speaks a TLS version older than the minimum accepted (TLS 1.2); the server needs upgrading';
    case 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE':
    case 'ERR_SSL_NO_SHARED_CIPHER':
    case 'ERR_SSL_NO_CIPHERS_AVAILABLE':
      return 'the TLS handshake failed: the server and core-agent have no protocol version or cipher in common';
    case 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA':
    case 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE':
    case 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED':
      return 'the server asks for a client certificate (mutual TLS), which core-agent does not send';
    case 'ERR_SSL_TLSV1_UNRECOGNIZED_NAME':
      return 'the server does not serve this host name over TLS (unrecognized name); use the host name it is configured for';
  }
  if (code.startsWith('ERR_SSL_')) {
    return `the TLS connection failed (OpenSSL says: ${code.slice('ERR_SSL_'.length).toLowerCase().replaceAll('_', ' ')}); the server's TLS setup is not one core-agent can use`;
  }
  return undefined;
}

/** Connection failures, from the operating system (errno) and from undici (UND_ERR_*). */
export function networkSentence(code: string, e: CodedError): string | undefined {
  const where = e.address !== undefined ? ` at ${e.address}${e.port !== undefined ? `:${e.port}` : ''}` : '';
  switch (code) {
    case 'ECONNREFUSED':
      return `nothing accepts connections${where} (ECONNREFUSED: connection refused); check the host and port, or whether the server is running`;
    case 'ECONNRESET':
      return 'the server closed the connection unexpectedly (ECONNRESET: connection reset); retry, and if it persists the server is rejecting the request';
    case 'ECONNABORTED':
      return 'the connection was aborted before it completed (ECONNABORTED); retry';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `the connection timed out${where} (${code}): the host did not answer; check the address, or retry later`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return `the host is not reachable from here${where} (${code}: no route to it)`;
    case 'ENOTFOUND':
      return `the host name ${e.hostname !== undefined ? `${quoteArg(e.hostname)} ` : ''}does not resolve (ENOTFOUND: DNS has no such name); check its spelling`;
    case 'EAI_AGAIN':
      return `the DNS lookup${e.hostname !== undefined ? ` of ${quoteArg(e.hostname)}` : ''} failed temporarily (EAI_AGAIN); retry in a moment`;
    case 'UND_ERR_SOCKET':
      return 'the server closed the connection before the response was complete (UND_ERR_SOCKET); retry';
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'the server accepted the connection but sent no response headers in time (UND_ERR_HEADERS_TIMEOUT); retry later';
    case 'UND_ERR_BODY_TIMEOUT':
      return 'the server stopped sending the response body (UND_ERR_BODY_TIMEOUT); retry later';
    case 'UND_ERR_HEADERS_OVERFLOW':
      return "the server's response headers are larger than accepted (UND_ERR_HEADERS_OVERFLOW)";
    default:
      return undefined;
  }
}

/** File-system and process errors (errno), naming the path involved (a bounded quote of it). */
export function errnoSentence(code: string, e: CodedError): string | undefined {
  const spawn = e.syscall?.startsWith('spawn') === true;
  const subject = e.path !== undefined ? quoteArg(e.path) : 'the path';
  const from = e.syscall !== undefined ? ` from ${e.syscall.split(' ')[0]}` : '';
  if (spawn) {
    switch (code) {
      case 'ENOENT':
        return `the program ${subject} was not found (ENOENT from spawn)`;
      case 'EACCES':
        return `the program ${subject} cannot be executed: it lacks execute permission (EACCES from spawn)`;
      case 'E2BIG':
        return 'the arguments and environment are larger than the system passes to a program (E2BIG: about 2 MiB in all and 128 KiB per argument); pass long input through a file';
      case 'EAGAIN':
      case 'ENOMEM':
        return `the system could not start another process (${code}: too many processes, or no memory); retry in a moment`;
    }
  }
  switch (code) {
    case 'ENOENT':
      return `${subject} does not exist (ENOENT${from}); check the path`;
    case 'EACCES':
      return `the operating system denied access to ${subject} (EACCES${from}: its permission bits or ownership); choose another path or ask the operator`;
    case 'EPERM':
      return `the operating system does not permit this operation on ${subject} (EPERM${from}: e.g. an immutable file or a protected location)`;
    case 'ENAMETOOLONG':
      return `the path ${subject} is longer than the system allows (ENAMETOOLONG: at most 4096 bytes in all and 255 bytes for each file or directory name); use a shorter path`;
    case 'ELOOP':
      return `too many levels of symbolic links under ${subject} (ELOOP: a symlink loop); use the path of the real file`;
    case 'EISDIR':
      return `${subject} is a directory, and this operation needs a file (EISDIR${from})`;
    case 'ENOTDIR':
      return `a component of ${subject} is a file where a directory is needed (ENOTDIR${from})`;
    case 'ENOTEMPTY':
      return `the directory ${subject} is not empty (ENOTEMPTY${from})`;
    case 'EEXIST':
      return `${subject} already exists (EEXIST${from})`;
    case 'EINVAL':
      return e.syscall === 'readlink'
        ? `${subject} changed while it was being resolved: it is no longer a symbolic link (EINVAL from readlink); retry the call`
        : `the operating system rejected the operation on ${subject} as invalid (EINVAL${from}); check the path and arguments`;
    case 'EMFILE':
    case 'ENFILE':
      return `too many files are open at once (${code}); retry in a moment, or run fewer calls at the same time`;
    case 'ENOSPC':
      return `no space is left on the device holding ${subject} (ENOSPC); free some space first`;
    case 'EDQUOT':
      return `the disk quota is exhausted for ${subject} (EDQUOT); free some space first`;
    case 'EROFS':
      return `${subject} is on a read-only file system (EROFS); it cannot be changed`;
    case 'EBUSY':
      return `${subject} is busy (EBUSY: in use by the system, e.g. a mount point)`;
    case 'ETXTBSY':
      return `${subject} is a program that is running, so it cannot be written now (ETXTBSY)`;
    case 'EXDEV':
      return `${subject} cannot be moved across file systems (EXDEV)`;
    case 'EFBIG':
      return `the file ${subject} would be larger than the system allows (EFBIG)`;
    case 'EIO':
      return `an input/output error on ${subject} (EIO: the disk or file system failed)`;
    case 'ENXIO':
    case 'ENODEV':
      return `${subject} is a device that is not there (${code})`;
    case 'EOVERFLOW':
      return `${subject} is too large to handle this way (EOVERFLOW)`;
    case 'EAGAIN':
      return `the resource is temporarily unavailable (EAGAIN${from}); retry in a moment`;
    case 'ENOMEM':
      return 'the system ran out of memory (ENOMEM); retry with a smaller request';
    case 'EPIPE':
      return 'the other end of a pipe closed before everything was written (EPIPE)';
    case 'E2BIG':
      return 'an argument is larger than the system passes to a program (E2BIG: about 2 MiB in all and 128 KiB per argument); pass long input through a file';
    default:
      return undefined;
  }
}

/** Node's own limits. */
function nodeSentence(code: string): string | undefined {
  switch (code) {
    case 'ERR_FS_FILE_TOO_LARGE':
      return 'the file is larger than 2 GiB, the most that can be read whole; read part of it (offset/limit) instead';
    case 'ERR_STRING_TOO_LONG':
      return 'the result would be larger than the longest text Node.js can hold (about 512 MB); ask for less';
    case 'ERR_WORKER_OUT_OF_MEMORY':
      return 'the work ran out of the memory it is allowed; ask for less';
    default:
      return undefined;
  }
}

/** The current directory was removed under the process (`process.cwd()` fails with ENOENT from uv_cwd). */
export function isCwdGone(err: unknown): boolean {
  return causeChain(err).some((e) => e.code === 'ENOENT' && (e.syscall === 'uv_cwd' || /\buv_cwd\b/.test(e.message)));
}
