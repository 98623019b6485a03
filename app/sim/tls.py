"""TLS on the demo provider's own port, for clients that force ``https``.

MiniMax's CLI (``mmx``) rewrites every ``http://`` download link to ``https://`` before it
downloads. The demo provider therefore also answers TLS on the same port: a connection whose
first byte is a TLS handshake is wrapped, any other is served as plain HTTP. The certificate is
self-signed for ``localhost``, ``127.0.0.1`` and ``::1`` (an EC key made with ``cryptography``);
a client trusts it by its file (``NODE_EXTRA_CA_CERTS`` for Node, ``verify=`` for httpx).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import logging
import os
import ssl
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

log = logging.getLogger(__name__)

CERT_NAME = "demo-cert.pem"
KEY_NAME = "demo-key.pem"
#: A certificate closer to its end than this is made anew.
_RENEW_BEFORE = dt.timedelta(days=30)


def _usable(cert_path: Path, key_path: Path) -> bool:
    if not (cert_path.is_file() and key_path.is_file()):
        return False
    try:
        from cryptography import x509

        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    except Exception:  # noqa: BLE001 - unreadable means make a new one
        return False
    end = cert.not_valid_after_utc
    return end - dt.datetime.now(dt.timezone.utc) > _RENEW_BEFORE


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One maker at a time per folder (several processes may start on one data dir)."""
    from app.files import open_private, private_dir

    private_dir(folder)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory lock; rare race, same outcome
        yield
        return
    with os.fdopen(open_private(folder / ".lock", os.O_WRONLY), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def ensure_certificate(folder: Path) -> Path | None:
    """The certificate file in ``folder`` (made when missing or ending soon), or ``None`` when
    ``cryptography`` is not installed."""
    with _locked(folder):
        return _ensure(folder)


def _ensure(folder: Path) -> Path | None:
    cert_path, key_path = folder / CERT_NAME, folder / KEY_NAME
    if _usable(cert_path, key_path):
        return cert_path
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError:
        log.info("demo provider: no TLS (the cryptography package is not installed)")
        return None
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Slate demo provider (loopback)")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=3650))
        .add_extension(
            x509.SubjectAlternativeName(
                [
                    x509.DNSName("localhost"),
                    x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                    x509.IPAddress(ipaddress.ip_address("::1")),
                ]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    key_bytes = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    tmp_key = key_path.with_suffix(f".{os.getpid()}.tmp")
    fd = os.open(tmp_key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key_bytes)
    tmp_cert = cert_path.with_suffix(f".{os.getpid()}.tmp")
    fd = os.open(tmp_cert, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    os.replace(tmp_key, key_path)  # the key first: a reader that finds the cert finds its key
    os.replace(tmp_cert, cert_path)
    return cert_path


def server_context(cert_path: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, cert_path.parent / KEY_NAME)
    return context
