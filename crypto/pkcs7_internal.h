/* What crypto/pkcs7_*.c share: the parsed SignedData (RFC 2315 9.1, RFC 5652 5.1), its
 * SignerInfos (RFC 2315 9.2) and the object identifiers they name. Every pointer points
 * into the caller's DER. */
#ifndef EMBER_CRYPTO_PKCS7_INTERNAL_H
#define EMBER_CRYPTO_PKCS7_INTERNAL_H

#include <efi/status.h>
#include <ember/crypto/der.h>
#include <ember/crypto/hash.h>
#include <ember/crypto/pkcs7.h>
#include "mbedtls/x509_crt.h"

struct pkcs7_signed_data {
	struct der_tlv content_type; /* contentInfo.contentType (an OID) */
	bool has_content;
	struct der_tlv content; /* the element inside contentInfo's [0] EXPLICIT */
	bool has_certificates;
	struct der_tlv certificates; /* [0] IMPLICIT SET OF Certificate */
	struct der_tlv signer_infos; /* SET OF SignerInfo */
};

struct pkcs7_signer_info {
	bool by_key_id;		   /* signer named by subjectKeyIdentifier (unsupported) */
	struct der_tlv issuer;	   /* issuerAndSerialNumber.issuer (a Name, whole) */
	struct der_tlv serial;	   /* issuerAndSerialNumber.serialNumber */
	struct der_tlv digest_alg; /* digestAlgorithm.algorithm (an OID) */
	bool has_attributes;
	struct der_tlv attributes;	 /* authenticatedAttributes, [0] IMPLICIT SET OF */
	struct der_tlv signature_alg;	 /* digestEncryptionAlgorithm.algorithm */
	struct der_tlv signature_params; /* its parameters (tag 0 when absent) */
	struct der_tlv signature;	 /* encryptedDigest's contents */
};

/* Parses p7 (SignedData with or without its ContentInfo wrapper); false when malformed. */
bool pkcs7_parse(struct pkcs7_blob p7, struct pkcs7_signed_data *sd);
/* Reads the next SignerInfo of a SET OF SignerInfo: EFI_SUCCESS, EFI_NOT_FOUND at the end,
 * EFI_INVALID_PARAMETER when malformed. */
EFI_STATUS pkcs7_next_signer_info(struct der *set, struct pkcs7_signer_info *si);
/* The digest algorithm an AlgorithmIdentifier's OID names; false for an unknown one. */
bool pkcs7_hash_alg(const struct der_tlv *oid, enum hash_alg *alg);

/* The certificates p7 carries, parsed by the library in place (its list owns nothing of
 * the bytes). Certificates the library cannot parse are left out. */
void pkcs7_certs_load(const struct pkcs7_signed_data *sd, mbedtls_x509_crt *certs);
/* The certificate named by a SignerInfo's issuer and serial number, or NULL. */
const mbedtls_x509_crt *pkcs7_certs_find(const mbedtls_x509_crt *certs,
					 const struct pkcs7_signer_info *si);
/* Whether leaf chains up, through certs, to a trusted certificate; top receives the
 * top-most certificate of leaf's chain within certs. */
bool pkcs7_chain_trusted(const mbedtls_x509_crt *leaf, const mbedtls_x509_crt *certs,
			 const struct pkcs7_blob *trusted, size_t n_trusted,
			 const mbedtls_x509_crt **top);

extern const uint8_t pkcs7_oid_signed_data[9];
extern const uint8_t pkcs7_oid_data[9];
extern const uint8_t pkcs7_oid_content_type[9];
extern const uint8_t pkcs7_oid_message_digest[9];

#endif
