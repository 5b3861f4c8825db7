/* Secure Boot's image verification (UEFI 2.10 32.4, 32.5): whether an image may run given
 * the signature databases db and dbx. The policy module (security/) produces the security
 * architectural protocols over it; LoadImage calls those. */
#ifndef EMBER_CORE_IMAGE_POLICY_H
#define EMBER_CORE_IMAGE_POLICY_H

#include <stddef.h>
#include <stdint.h>

/* The verdict on an image, first the one allowed then the reasons to refuse it. */
enum image_verdict {
	IMAGE_ALLOWED,
	IMAGE_HASH_IN_DBX,    /* its Authenticode digest is listed in dbx */
	IMAGE_SIGNER_IN_DBX,  /* a signature's certificate (or its digest) is in dbx */
	IMAGE_NO_SIGNATURE,   /* unsigned and its digest is not in db */
	IMAGE_UNKNOWN_SIGNER, /* signed, but by no certificate of db */
	IMAGE_BAD_SIGNATURE,  /* a signature that does not match the image or its signer */
	IMAGE_MALFORMED,      /* the image, its certificate table or a database is malformed */
};

/* The contents of db and dbx (EFI_SIGNATURE_LIST chains; size 0 when a variable is
 * absent). */
struct image_databases {
	const void *db;
	size_t db_size;
	const void *dbx;
	size_t dbx_size;
};

/* Checks an image (a PE/COFF file of size bytes) against dbx then db: refused when its
 * digest or the certificate of one of its signatures is in dbx; allowed when a signature
 * verifies to a certificate of db or its digest is in db. */
enum image_verdict image_policy_check(const void *image, size_t size,
				      const struct image_databases *dbs);

/* The db entry that allowed an image: a whole EFI_SIGNATURE_DATA (owner GUID, then the
 * certificate or digest) inside the caller's db buffer; NULL when none did. Measured boot
 * logs it in PCR 7 (EV_EFI_VARIABLE_AUTHORITY). */
struct image_authority {
	const uint8_t *entry;
	size_t size;
	uint8_t sha256[32]; /* the image's Authenticode SHA-256, computed on the way */
};

/* image_policy_check, also saying in *authority which db entry allowed the
 * image: the certificate the first allowed signature verified to, else the digest entry;
 * and the image's Authenticode SHA-256 (measured boot takes it rather than hash again). */
enum image_verdict image_policy_check_authority(const void *image, size_t size,
						const struct image_databases *dbs,
						struct image_authority *authority);

/* The verdict in a few words for the log ("hash in dbx", "no signature" ...). */
const char *image_verdict_text(enum image_verdict verdict);

#endif
