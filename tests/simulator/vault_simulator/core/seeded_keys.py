"""Private keys that ``--seed`` makes reproducible.

``cryptography`` cannot seed its RSA generation, so with a seed the primes
are drawn from the simulator's random source and tested with Miller-Rabin;
without one, ``cryptography`` generates the key. Either way the result is an
ordinary ``cryptography`` RSA private key. These keys protect nothing real:
they only have to be valid and reproducible.
"""

from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

PUBLIC_EXPONENT = 65537
_SMALL_PRIMES = (3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97)
_CURVES = {256: ec.SECP256R1, 384: ec.SECP384R1, 521: ec.SECP521R1}


def rsa_key(rng, bits, seeded):
    """An RSA key of ``bits`` bits: drawn from ``rng`` when ``seeded``."""
    if not seeded:
        return rsa.generate_private_key(public_exponent=PUBLIC_EXPONENT, key_size=bits)
    while True:
        p, q = _prime(rng, bits // 2), _prime(rng, bits - bits // 2)
        n, phi = p * q, (p - 1) * (q - 1)
        if p != q and n.bit_length() == bits and phi % PUBLIC_EXPONENT:
            break
    d = pow(PUBLIC_EXPONENT, -1, phi)
    numbers = rsa.RSAPrivateNumbers(
        p=p,
        q=q,
        d=d,
        dmp1=d % (p - 1),
        dmq1=d % (q - 1),
        iqmp=pow(q, -1, p),
        public_numbers=rsa.RSAPublicNumbers(PUBLIC_EXPONENT, n),
    )
    return numbers.private_key()


def ec_key(rng, bits, seeded):
    """An ECDSA key on the NIST curve of ``bits`` (256, 384, 521)."""
    curve = _CURVES[bits]()
    if not seeded:
        return ec.generate_private_key(curve)
    return ec.derive_private_key(rng.getrandbits(bits - 2) + 1, curve)


def ed25519_key(rng, seeded):
    if not seeded:
        return ed25519.Ed25519PrivateKey.generate()
    return ed25519.Ed25519PrivateKey.from_private_bytes(rng.token_bytes(32))


def _prime(rng, bits):
    """A random prime of exactly ``bits`` bits with its two top bits set."""
    while True:
        candidate = rng.getrandbits(bits) | (3 << (bits - 2)) | 1
        if all(candidate % small for small in _SMALL_PRIMES) and is_probable_prime(rng, candidate):
            return candidate


def is_probable_prime(rng, n, rounds=40):
    """Miller-Rabin with ``rounds`` random bases."""
    if n < 4:
        return n in (2, 3)
    if n % 2 == 0:
        return False
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for _round in range(rounds):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _square in range(r - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True
