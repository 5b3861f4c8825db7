/* PKCS#7 SignedData (RFC 2315) verification as UEFI uses it: authenticated variables
 * (EFI_VARIABLE_AUTHENTICATION_2: detached content) and Authenticode signatures of images
 * (embedded SpcIndirectDataContent). The walk of SignedData is Ember's; X.509, RSA and the
 * digests come from the crypto library (crypto/). */
#ifndef EMBER_CRYPTO_PKCS7_H
#define EMBER_CRYPTO_PKCS7_H

#include <efi/types.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes inside a caller's buffer (never copied). */
struct pkcs7_blob {
	const uint8_t *data;
	size_t size;
};

/* Who signed: the signer's certificate and the top-most certificate of its chain among
 * those the SignedData carries (the signer's own when it carries no issuer), both DER
 * inside p7. Private authenticated variables remember the signer by these (UEFI 2.10
 * 8.2.1: the signer's Common Name and the top-level certificate's tbsCertificate). */
struct pkcs7_signer {
	struct pkcs7_blob leaf;
	struct pkcs7_blob top;
};

/* Verifies that p7 (DER SignedData, with or without its ContentInfo wrapper) signs content
 * (content.data NULL: the content embedded in p7) by a signer trusted by trusted[]: a DER
 * certificate that is the signer's certificate (compared byte for byte) or an issuer of its
 * chain (built from the certificates p7 carries). With n_trusted 0, any signer whose
 * signature is valid is accepted (private authenticated variables then compare the signer).
 * Several SignerInfos: any one that verifies suffices. Authenticated attributes, when
 * present, must hold the content's messageDigest. signer (may be NULL) receives the signer
 * that verified.
 * Returns EFI_SUCCESS; EFI_SECURITY_VIOLATION when no signer verifies against trusted[] or
 * a signature is wrong; EFI_INVALID_PARAMETER when p7 is malformed; EFI_UNSUPPORTED for an
 * algorithm the library lacks. */
EFI_STATUS pkcs7_verify(struct pkcs7_blob p7, struct pkcs7_blob content,
			const struct pkcs7_blob *trusted, size_t n_trusted,
			struct pkcs7_signer *signer);

/* The content p7 embeds (content.data NULL when it embeds none): its type (the OID's
 * contents octets) and the content element, whole DER (Authenticode's
 * SpcIndirectDataContent). EFI_INVALID_PARAMETER when p7 is malformed. */
EFI_STATUS pkcs7_get_content(struct pkcs7_blob p7, struct pkcs7_blob *type,
			     struct pkcs7_blob *content);

#endif
