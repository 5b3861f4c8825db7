/* security/image_policy.c, Secure Boot's verdict on images (UEFI 2.10 32.5), on images
 * signed by sbsign and databases made by efitools (tests/crypto/mkartefacts): leaf is
 * issued by root; other is a self-signed certificate nobody trusts unless told. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto_artefacts.h"
#include "support/test.h"
#include <ember/core/image_policy.h>
#include <ember/crypto/authenticode.h>

/* The signature lists named (blank-separated) one after the other, as db or dbx hold
 * them; *size 0 and NULL for none. */
static uint8_t *lists(const char *names, size_t *size)
{
	char copy[256], *save = NULL;
	uint8_t *out = NULL;

	*size = 0;
	snprintf(copy, sizeof(copy), "%s", names);
	for (char *name = strtok_r(copy, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
		size_t n;
		uint8_t *data = artefact_read(name, &n);
		out = realloc(out, *size + n);
		ASSERT(out != NULL);
		memcpy(out + *size, data, n);
		*size += n;
		free(data);
	}
	return out;
}

static enum image_verdict check_data(const uint8_t *image, size_t size, const char *db,
				     const char *dbx)
{
	struct image_databases dbs;
	uint8_t *db_data = lists(db, &dbs.db_size), *dbx_data = lists(dbx, &dbs.dbx_size);
	enum image_verdict v;

	dbs.db = db_data;
	dbs.dbx = dbx_data;
	v = image_policy_check(image, size, &dbs);
	free(db_data);
	free(dbx_data);
	return v;
}

static enum image_verdict check(const char *image_name, const char *db, const char *dbx)
{
	size_t size;
	uint8_t *image = artefact_read(image_name, &size);
	enum image_verdict v = check_data(image, size, db, dbx);

	free(image);
	return v;
}

TEST(image_policy_signed_by_db_chain_allowed)
{
	EXPECT_EQ(check("hello.signed.efi", "root.esl", ""), IMAGE_ALLOWED);
	/* The signer's own certificate in db, and the other databases' entries around it. */
	EXPECT_EQ(check("hello.signed.efi", "leaf.esl", ""), IMAGE_ALLOWED);
	EXPECT_EQ(check("shell.signed.efi", "other.esl root.esl", "shell_client.hash.esl"),
		  IMAGE_ALLOWED);
}

TEST(image_policy_unsigned_refused)
{
	EXPECT_EQ(check("hello.efi", "root.esl", ""), IMAGE_NO_SIGNATURE);
	EXPECT_EQ(check("hello.efi", "", ""), IMAGE_NO_SIGNATURE);
}

TEST(image_policy_unknown_signer_refused)
{
	EXPECT_EQ(check("hello.signed.efi", "other.esl", ""), IMAGE_UNKNOWN_SIGNER);
	EXPECT_EQ(check("hello.signed.efi", "", ""), IMAGE_UNKNOWN_SIGNER);
}

/* A byte of the first section changed after signing: the signature signs another digest. */
TEST(image_policy_tampered_refused)
{
	size_t size;
	uint8_t *image = artefact_read("hello.signed.efi", &size);
	uint32_t pe, raw;
	uint16_t optional;

	memcpy(&pe, image + 0x3c, 4);
	memcpy(&optional, image + pe + 20, 2);
	memcpy(&raw, image + pe + 24 + optional + 20, 4);
	ASSERT(raw + 16 < size);
	image[raw + 16] ^= 0x40;
	EXPECT_EQ(check_data(image, size, "root.esl", ""), IMAGE_BAD_SIGNATURE);
	free(image);
}

TEST(image_policy_hash_in_dbx_refused)
{
	EXPECT_EQ(check("hello.signed.efi", "root.esl", "hello.hash.esl"), IMAGE_HASH_IN_DBX);
	/* Even when db lists the same digest. */
	EXPECT_EQ(check("hello.signed.efi", "hello.hash.esl", "hello.hash.esl"), IMAGE_HASH_IN_DBX);
}

TEST(image_policy_hash_in_db_allowed)
{
	EXPECT_EQ(check("hello.signed.efi", "hello.hash.esl", ""), IMAGE_ALLOWED);
	/* Another image's digest allows nothing. */
	EXPECT_EQ(check("hello.signed.efi", "shell.hash.esl", ""), IMAGE_UNKNOWN_SIGNER);
}

TEST(image_policy_signer_certificate_in_dbx_refused)
{
	/* The leaf or its issuer as a certificate, or their tbsCertificate digests. */
	EXPECT_EQ(check("hello.signed.efi", "root.esl", "leaf.esl"), IMAGE_SIGNER_IN_DBX);
	EXPECT_EQ(check("hello.signed.efi", "root.esl", "root.esl"), IMAGE_SIGNER_IN_DBX);
	EXPECT_EQ(check("hello.signed.efi", "root.esl", "leaf.x509sha256.esl"),
		  IMAGE_SIGNER_IN_DBX);
	EXPECT_EQ(check("hello.signed.efi", "root.esl", "root.x509sha384.esl"),
		  IMAGE_SIGNER_IN_DBX);
	/* Someone else's certificate revokes nothing. */
	EXPECT_EQ(check("hello.signed.efi", "root.esl", "other.esl other.x509sha256.esl"),
		  IMAGE_ALLOWED);
}

/* signed2: signed by leaf, then by other (sbsign adds a second signature). */
TEST(image_policy_two_signatures)
{
	EXPECT_EQ(check("hello.signed2.efi", "root.esl", ""), IMAGE_ALLOWED);
	EXPECT_EQ(check("hello.signed2.efi", "other.esl", ""), IMAGE_ALLOWED);
	EXPECT_EQ(check("hello.signed2.efi", "kek.esl", ""), IMAGE_UNKNOWN_SIGNER);
	/* One trusted signature does not outweigh a revoked one. */
	EXPECT_EQ(check("hello.signed2.efi", "root.esl", "other.esl"), IMAGE_SIGNER_IN_DBX);
	EXPECT_EQ(check("hello.signed2.efi", "root.esl", "other.x509sha256.esl"),
		  IMAGE_SIGNER_IN_DBX);
}

TEST(image_policy_other_digest_algorithms)
{
	EXPECT_EQ(check("hello.sha384.efi", "root.esl", ""), IMAGE_ALLOWED);
	EXPECT_EQ(check("hello.sha512.efi", "root.esl", ""), IMAGE_ALLOWED);
	EXPECT_EQ(check("hello.sha1.efi", "root.esl", ""), IMAGE_ALLOWED);
}

TEST(image_policy_malformed_refused)
{
	static const uint8_t garbage[64] = {'M', 'Z'};
	size_t size;
	uint8_t *image = artefact_read("hello.signed.efi", &size);

	EXPECT_EQ(check_data(garbage, sizeof(garbage), "root.esl", ""), IMAGE_MALFORMED);
	/* Cut inside the certificate table. */
	EXPECT(check_data(image, size - 100, "root.esl", "") != IMAGE_ALLOWED);
	/* A malformed database (30 bytes of an image as db) refuses everything. */
	{
		struct image_databases dbs = {image, 30, NULL, 0};
		EXPECT_EQ(image_policy_check(image, size, &dbs), IMAGE_MALFORMED);
	}
	free(image);
}

/* The EFI_SIGNATURE_DATA that allowed the image: its offset in db, and the certificate it
 * holds compared with cert (NULL: a SHA-256 digest entry). */
static void expect_authority(const char *image_name, const char *db, size_t offset,
			     const char *cert)
{
	struct image_databases dbs = {0};
	struct image_authority authority;
	size_t size, cert_size = 0;
	uint8_t sha256[32];
	uint8_t *image = artefact_read(image_name, &size);
	uint8_t *db_data = lists(db, &dbs.db_size);
	uint8_t *expected = cert ? artefact_read(cert, &cert_size) : NULL;

	if (!cert)
		cert_size = 32;

	dbs.db = db_data;
	EXPECT_EQ(image_policy_check_authority(image, size, &dbs, &authority), IMAGE_ALLOWED);
	EXPECT(authority.entry == db_data + offset);
	EXPECT_EQ(authority.size, 16 + cert_size);
	if (expected)
		EXPECT(memcmp(authority.entry + 16, expected, cert_size) == 0);
	/* The image's Authenticode SHA-256 comes along, for measured boot. */
	EXPECT_STATUS(authenticode_digest(image, size, HASH_SHA256, sha256), EFI_SUCCESS);
	EXPECT(memcmp(authority.sha256, sha256, sizeof(sha256)) == 0);
	free(expected);
	free(db_data);
	free(image);
}

/* Measured boot logs the db entry that allowed an image (EV_EFI_VARIABLE_AUTHORITY). */
TEST(image_policy_reports_the_allowing_entry)
{
	size_t other_size;
	uint8_t *other = lists("other.esl", &other_size);
	struct image_databases dbs = {0};
	struct image_authority authority = {(const uint8_t *)1, 1};
	size_t size;
	uint8_t *image = artefact_read("hello.signed.efi", &size);

	/* The certificate that verified, the second of db's lists (28: the list's header). */
	expect_authority("hello.signed.efi", "other.esl root.esl", other_size + 28, "root.der");
	expect_authority("hello.signed2.efi", "other.esl", 28, "other.der");
	/* The digest entry when no signature did. */
	expect_authority("hello.signed.efi", "other.esl hello.hash.esl", other_size + 28, NULL);
	/* Refused: no entry. */
	dbs.db = other;
	dbs.db_size = other_size;
	EXPECT_EQ(image_policy_check_authority(image, size, &dbs, &authority),
		  IMAGE_UNKNOWN_SIGNER);
	EXPECT(authority.entry == NULL && authority.size == 0);
	free(image);
	free(other);
}

TEST(image_policy_verdict_texts)
{
	EXPECT(strcmp(image_verdict_text(IMAGE_HASH_IN_DBX), "hash in dbx") == 0);
	EXPECT(strcmp(image_verdict_text(IMAGE_NO_SIGNATURE), "no signature") == 0);
	EXPECT(strcmp(image_verdict_text(IMAGE_UNKNOWN_SIGNER), "unknown signer") == 0);
	EXPECT(strcmp(image_verdict_text(IMAGE_BAD_SIGNATURE), "bad signature") == 0);
	EXPECT(strcmp(image_verdict_text(IMAGE_MALFORMED), "malformed") == 0);
}
