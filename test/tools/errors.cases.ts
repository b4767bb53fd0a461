/**
 * System and library failures, as Node and its libraries raise them, and a
 * fragment of the sentence the model must get instead. One line per case:
 * [code, extra fields of the error (syscall, path, …), the expected fragment].
 * errors.test.ts builds each error (with Node's own message) and runs it through
 * describeFailure, alone and nested as undici nests causes.
 */
export const ERRNO_CASES: ReadonlyArray<readonly [code: string, fields: Record<string, unknown>, expected: RegExp]> = [
  ['ENOENT', { syscall: 'open', path: '/w/a.txt' }, /^"\/w\/a\.txt" does not exist \(ENOENT from open\); check the path$/],
  [
    'EACCES',
    { syscall: 'open', path: '/w/secret' },
    /denied access to "\/w\/secret" \(EACCES from open: its permission bits or ownership\); choose another path/,
  ],
  ['EPERM', { syscall: 'unlink', path: '/w/f' }, /does not permit this operation on "\/w\/f" \(EPERM from unlink/],
  [
    'ENAMETOOLONG',
    { syscall: 'lstat', path: `/w/${'a'.repeat(5000)}` },
    /^the path "\/w\/a{190,}…" \(5003 characters\) is longer than the system allows \(ENAMETOOLONG: at most 4096 bytes in all and 255 bytes for each file or directory name\); use a shorter path$/,
  ],
  ['ELOOP', { syscall: 'open', path: '/w/loop' }, /too many levels of symbolic links under "\/w\/loop" \(ELOOP: a symlink loop\)/],
  ['EISDIR', { syscall: 'read', path: '/w/d' }, /"\/w\/d" is a directory, and this operation needs a file \(EISDIR from read\)/],
  [
    'ENOTDIR',
    { syscall: 'scandir', path: '/w/f/x' },
    /a component of "\/w\/f\/x" is a file where a directory is needed \(ENOTDIR from scandir\)/,
  ],
  [
    'EINVAL',
    { syscall: 'readlink', path: '/w/l' },
    /"\/w\/l" changed while it was being resolved: it is no longer a symbolic link \(EINVAL from readlink\); retry the call/,
  ],
  ['EINVAL', { syscall: 'open', path: '/w/x' }, /rejected the operation on "\/w\/x" as invalid \(EINVAL from open\)/],
  ['EMFILE', { syscall: 'open', path: '/w/x' }, /too many files are open at once \(EMFILE\); retry in a moment/],
  ['ENFILE', { syscall: 'open' }, /too many files are open at once \(ENFILE\)/],
  ['ENOSPC', { syscall: 'write', path: '/w/big' }, /no space is left on the device holding "\/w\/big" \(ENOSPC\); free some space first/],
  ['EDQUOT', { syscall: 'write', path: '/w/big' }, /disk quota is exhausted/],
  ['EROFS', { syscall: 'open', path: '/ro/f' }, /"\/ro\/f" is on a read-only file system \(EROFS\); it cannot be changed/],
  ['EEXIST', { syscall: 'mkdir', path: '/w/d' }, /"\/w\/d" already exists \(EEXIST from mkdir\)/],
  ['EBUSY', { syscall: 'rmdir', path: '/mnt' }, /"\/mnt" is busy \(EBUSY/],
  ['ETXTBSY', { syscall: 'open', path: '/w/prog' }, /"\/w\/prog" is a program that is running, so it cannot be written now \(ETXTBSY\)/],
  ['ENOTEMPTY', { syscall: 'rmdir', path: '/w/d' }, /the directory "\/w\/d" is not empty/],
  ['EXDEV', { syscall: 'rename', path: '/a' }, /cannot be moved across file systems \(EXDEV\)/],
  ['EIO', { syscall: 'read', path: '/w/f' }, /an input\/output error on "\/w\/f" \(EIO/],
  ['EFBIG', { syscall: 'write', path: '/w/f' }, /would be larger than the system allows \(EFBIG\)/],
  [
    'E2BIG',
    { syscall: 'spawn /usr/bin/rg', path: '/usr/bin/rg' },
    /larger than the system passes to a program \(E2BIG: about 2 MiB in all and 128 KiB per argument\); pass long input through a file/,
  ],
  ['ENOENT', { syscall: 'spawn rg', path: 'rg' }, /^the program "rg" was not found \(ENOENT from spawn\)$/],
  ['EACCES', { syscall: 'spawn /w/tool', path: '/w/tool' }, /the program "\/w\/tool" cannot be executed: it lacks execute permission/],
  ['EAGAIN', { syscall: 'spawn /bin/sh', path: '/bin/sh' }, /could not start another process \(EAGAIN/],
  ['ENOMEM', { syscall: 'mmap' }, /ran out of memory \(ENOMEM\)/],
  ['EPIPE', { syscall: 'write' }, /the other end of a pipe closed/],
  [
    'ECONNREFUSED',
    { syscall: 'connect', address: '127.0.0.1', port: 9 },
    /^nothing accepts connections at 127\.0\.0\.1:9 \(ECONNREFUSED: connection refused\); check the host and port/,
  ],
  ['ECONNRESET', { syscall: 'read' }, /the server closed the connection unexpectedly \(ECONNRESET: connection reset\)/],
  [
    'ETIMEDOUT',
    { syscall: 'connect', address: '10.0.0.1', port: 443 },
    /the connection timed out at 10\.0\.0\.1:443 \(ETIMEDOUT\): the host did not answer/,
  ],
  [
    'EHOSTUNREACH',
    { syscall: 'connect', address: '10.9.9.9', port: 80 },
    /the host is not reachable from here at 10\.9\.9\.9:80 \(EHOSTUNREACH: no route to it\)/,
  ],
  ['ENETUNREACH', { syscall: 'connect' }, /the host is not reachable from here \(ENETUNREACH/],
  [
    'ENOTFOUND',
    { syscall: 'getaddrinfo', hostname: 'nope.invalid' },
    /the host name "nope\.invalid" does not resolve \(ENOTFOUND: DNS has no such name\); check its spelling/,
  ],
  [
    'EAI_AGAIN',
    { syscall: 'getaddrinfo', hostname: 'flaky.test' },
    /the DNS lookup of "flaky\.test" failed temporarily \(EAI_AGAIN\); retry in a moment/,
  ],
  ['UND_ERR_CONNECT_TIMEOUT', {}, /the connection timed out \(UND_ERR_CONNECT_TIMEOUT\)/],
  ['UND_ERR_SOCKET', {}, /closed the connection before the response was complete \(UND_ERR_SOCKET\)/],
  ['UND_ERR_HEADERS_TIMEOUT', {}, /sent no response headers in time/],
  ['UND_ERR_BODY_TIMEOUT', {}, /stopped sending the response body/],
  [
    'CERT_HAS_EXPIRED',
    {},
    /^the server's TLS certificate has expired, so the connection was refused; the server needs a renewed certificate .* \(CERT_HAS_EXPIRED\)$/,
  ],
  ['CERT_NOT_YET_VALID', {}, /not valid yet/],
  [
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    {},
    /^the server presented a self-signed TLS certificate, which is not trusted; if the operator trusts this server, they can add its CA certificate with NODE_EXTRA_CA_CERTS/,
  ],
  ['SELF_SIGNED_CERT_IN_CHAIN', {}, /chain ends in a self-signed CA that is not trusted/],
  [
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    {},
    /signed by a CA that is not trusted, or the server does not send its intermediate certificates; .*NODE_EXTRA_CA_CERTS/,
  ],
  ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', {}, /signed by a CA that is not trusted.*\(UNABLE_TO_GET_ISSUER_CERT_LOCALLY\)$/],
  ['CERT_REVOKED', {}, /has been revoked/],
  ['CERT_SIGNATURE_FAILURE', {}, /could not be verified \(CERT_SIGNATURE_FAILURE\)/],
  [
    'ERR_TLS_CERT_ALTNAME_INVALID',
    { host: 'other.test' },
    /issued for other host names, not this one; use the host name the certificate names \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
  ],
  ['ERR_TLS_HANDSHAKE_TIMEOUT', {}, /the TLS handshake with the server timed out/],
  [
    'ERR_SSL_WRONG_VERSION_NUMBER',
    {},
    /did not answer in TLS: this port probably serves plain HTTP; use its HTTPS port, or an http:\/\/ URL where plain HTTP is allowed/,
  ],
  ['ERR_SSL_PACKET_LENGTH_TOO_LONG', {}, /did not answer in TLS/],
  ['ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', {}, /older than the minimum accepted \(TLS 1\.2\)/],
  ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', {}, /no protocol version or cipher in common/],
  ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', {}, /asks for a client certificate \(mutual TLS\)/],
  ['ERR_SSL_TLSV1_UNRECOGNIZED_NAME', {}, /does not serve this host name over TLS/],
  [
    'ERR_SSL_DH_KEY_TOO_SMALL',
    {},
    /^the TLS connection failed \(OpenSSL says: dh key too small\); the server's TLS setup is not one core-agent can use \(ERR_SSL_DH_KEY_TOO_SMALL\)$/,
  ],
  ['ERR_FS_FILE_TOO_LARGE', {}, /larger than 2 GiB, the most that can be read whole/],
  ['ERR_STRING_TOO_LONG', {}, /larger than the longest text Node\.js can hold/],
];

/** Failures of a jq worker and the sentence for each: out of memory, a WebAssembly trap, deep recursion. */
export const JQ_CRASH_CASES: ReadonlyArray<readonly [error: { message: string; code?: string }, expected: RegExp]> = [
  [{ message: 'memory access out of bounds' }, /^the jq expression used more memory than jq is allowed \(256 MB\); narrow it: /],
  [{ message: 'Aborted(). Build with -sASSERTIONS for more info.' }, /used more memory than jq is allowed \(256 MB\)/],
  [{ message: 'Aborted(OOM)' }, /used more memory than jq is allowed/],
  [{ message: 'Cannot enlarge memory arrays to size 268500992 bytes' }, /used more memory than jq is allowed/],
  [{ message: 'out of memory' }, /used more memory than jq is allowed/],
  [
    { message: 'Worker terminated due to reaching memory limit: JS heap out of memory', code: 'ERR_WORKER_OUT_OF_MEMORY' },
    /output used more memory than allowed \(512 MB\)/,
  ],
  [{ message: 'Maximum call stack size exceeded' }, /^the jq expression recursed too deeply; give the recursion a base case/],
  [{ message: 'unreachable' }, /^jq stopped with an internal error on this expression \(unreachable\); simplify the expression$/],
  [{ message: 'the jq worker exited (code 1)' }, /internal error on this expression \(the jq worker exited \(code 1\)\)/],
];
