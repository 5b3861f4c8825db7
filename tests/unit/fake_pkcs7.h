/* A stand-in for crypto/'s pkcs7_verify and hash_buffer, for the variable services' unit
 * tests of their rules (the real verification is tested with openssl-made signatures in
 * tests/integration). A fake certificate is a minimal DER certificate naming a subject;
 * a fake SignedData carries its signer's certificate and a CRC of the signed message. */
#ifndef FAKE_PKCS7_H
#define FAKE_PKCS7_H

#include <ember/core/varstore.h>

#define FAKE_CERT_MAX 128

/* A signing key: its (fake) certificate. */
struct fake_key {
	UINT8 cert[FAKE_CERT_MAX];
	UINT32 cert_size;
};

/* A certificate whose subject's Common Name is cn (under 60 characters). */
void fake_key_init(struct fake_key *k, const char *cn);
/* Gives svc the fake verification and digest. */
void fake_crypto_install(struct var_service *svc);
/* Calls of the fake verification so far. */
extern UINT32 fake_pkcs7_calls;

/* An EFI_SIGNATURE_LIST holding k's certificate (owner: a fixed GUID + owner_tag).
 * Returns its size. */
UINT32 fake_esl_x509(UINT8 *out, const struct fake_key *k, UINT8 owner_tag);
/* An EFI_SIGNATURE_LIST of count SHA-256 entries, entry i filled with first + i. */
UINT32 fake_esl_sha256(UINT8 *out, UINT8 first, UINT32 count);

/* The data of an authenticated write (EFI_VARIABLE_AUTHENTICATION_2, then payload) at
 * time year-01-01 00:00:second, signed by k (NULL: an empty signature) over name, guid,
 * attributes, the time and payload. Returns its size. */
UINT32 fake_auth_write(UINT8 *out, const struct fake_key *k, const CHAR16 *name,
		       const EFI_GUID *guid, UINT32 attributes, UINT16 year, UINT8 second,
		       const void *payload, UINT32 payload_size);

#endif
