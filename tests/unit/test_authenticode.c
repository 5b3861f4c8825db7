/* crypto/authenticode_*.c on Ember's apps and gnu-efi programs, unsigned and signed by
 * sbsign and osslsigncode (tests/crypto/mkartefacts): the digest equals what pesign and
 * osslsigncode compute, the signatures carry it and verify. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto_artefacts.h"
#include "support/test.h"
#include <ember/crypto/authenticode.h>

static bool alg_from_name(const char *name, enum hash_alg *alg)
{
	static const struct {
		const char *name;
		enum hash_alg alg;
	} names[] = {{"sha1", HASH_SHA1},
		     {"sha256", HASH_SHA256},
		     {"sha384", HASH_SHA384},
		     {"sha512", HASH_SHA512}};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i].name, name) == 0) {
			*alg = names[i].alg;
			return true;
		}
	return false;
}

static void to_hex(const uint8_t *bytes, size_t size, char *hex)
{
	for (size_t i = 0; i < size; i++)
		sprintf(hex + 2 * i, "%02x", bytes[i]);
}

/* Ember's digest of an artefact, in hex. */
static void digest_hex(const char *name, enum hash_alg alg, char *hex)
{
	struct pkcs7_blob image = artefact_blob(name);
	uint8_t digest[HASH_MAX_SIZE];

	hex[0] = 0;
	EXPECT_STATUS(authenticode_digest(image.data, image.size, alg, digest), EFI_SUCCESS);
	to_hex(digest, hash_size(alg), hex);
	artefact_free(image);
}

TEST(authenticode_digest_equals_pesign_and_osslsigncode)
{
	char path[512], file[256], alg_name[16], want[2 * HASH_MAX_SIZE + 1];
	char got[2 * HASH_MAX_SIZE + 1];
	int lines = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/digests.txt", artefact_dir());
	f = fopen(path, "r");
	ASSERT(f != NULL);
	while (fscanf(f, "%255s %15s %128s", file, alg_name, want) == 3) {
		enum hash_alg alg;

		lines++;
		ASSERT(alg_from_name(alg_name, &alg));
		digest_hex(file, alg, got);
		if (strcmp(got, want) != 0)
			fprintf(stderr, "    %s %s: Ember %s, tools %s\n", file, alg_name, got,
				want);
		EXPECT(strcmp(got, want) == 0);
	}
	fclose(f);
	/* Four images, seven digests each: unsigned, signed once and twice (pesign), signed
	 * (osslsigncode), three other algorithms. */
	EXPECT_EQ(lines, 4 * 7);
}

/* The signatures of an image: each SignedData, its signed digest equal to Ember's, and the
 * verdict of pkcs7_verify against trusted. */
static size_t check_signatures(const char *name, const char *trusted_name, EFI_STATUS *verdicts)
{
	struct pkcs7_blob image = artefact_blob(name), trusted = artefact_blob(trusted_name);
	struct authenticode_certs certs;
	struct pkcs7_blob p7, signed_digest;
	uint8_t digest[HASH_MAX_SIZE];
	enum hash_alg alg;
	size_t count = 0;
	EFI_STATUS status;

	ASSERT_STATUS(authenticode_certs_begin(image.data, image.size, &certs), EFI_SUCCESS);
	while ((status = authenticode_certs_next(&certs, &p7)) == EFI_SUCCESS && count < 4) {
		ASSERT_STATUS(authenticode_signed_digest(p7, &alg, &signed_digest), EFI_SUCCESS);
		ASSERT_STATUS(authenticode_digest(image.data, image.size, alg, digest),
			      EFI_SUCCESS);
		EXPECT_EQ(signed_digest.size, hash_size(alg));
		EXPECT(memcmp(signed_digest.data, digest, hash_size(alg)) == 0);
		verdicts[count++] =
		    pkcs7_verify(p7, (struct pkcs7_blob){NULL, 0}, &trusted, 1, NULL);
	}
	EXPECT_STATUS(status, EFI_NOT_FOUND);
	artefact_free(image);
	artefact_free(trusted);
	return count;
}

TEST(authenticode_sbsign_signatures_verify)
{
	static const char *bases[] = {"var-test", "shell", "hello", "shell_client"};
	char name[64];
	EFI_STATUS v[4];

	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		snprintf(name, sizeof(name), "%s.signed.efi", bases[i]);
		EXPECT_EQ(check_signatures(name, "root.der", v), 1);
		EXPECT_STATUS(v[0], EFI_SUCCESS);
		/* Signed twice: leaf's signature first, then other's, in two entries. */
		snprintf(name, sizeof(name), "%s.signed2.efi", bases[i]);
		EXPECT_EQ(check_signatures(name, "other.der", v), 2);
		EXPECT_STATUS(v[0], EFI_SECURITY_VIOLATION);
		EXPECT_STATUS(v[1], EFI_SUCCESS);
		snprintf(name, sizeof(name), "%s.sha384.efi", bases[i]);
		EXPECT_EQ(check_signatures(name, "root.der", v), 1);
		EXPECT_STATUS(v[0], EFI_SUCCESS);
	}
}

TEST(authenticode_unsigned_image_has_no_table)
{
	struct pkcs7_blob image = artefact_blob("hello.efi");
	struct authenticode_certs certs;

	EXPECT_STATUS(authenticode_certs_begin(image.data, image.size, &certs), EFI_NOT_FOUND);
	artefact_free(image);
}

TEST(authenticode_tampered_section_changes_digest)
{
	struct pkcs7_blob image = artefact_blob("hello.signed.efi");
	uint8_t before[32], after[32], checksum[32];

	ASSERT_STATUS(authenticode_digest(image.data, image.size, HASH_SHA256, before),
		      EFI_SUCCESS);
	/* The checksum is left out of the digest; the first section's first byte is not. */
	((uint8_t *)image.data)[0x400] ^= 1;
	ASSERT_STATUS(authenticode_digest(image.data, image.size, HASH_SHA256, after), EFI_SUCCESS);
	EXPECT(memcmp(before, after, 32) != 0);
	((uint8_t *)image.data)[0x400] ^= 1;
	{
		uint32_t pe;

		memcpy(&pe, image.data + 0x3C, 4);
		((uint8_t *)image.data)[pe + 24 + 64] ^= 0xFF;
	}
	ASSERT_STATUS(authenticode_digest(image.data, image.size, HASH_SHA256, checksum),
		      EFI_SUCCESS);
	EXPECT(memcmp(before, checksum, 32) == 0);
	artefact_free(image);
}

TEST(authenticode_truncated_images_refused_or_bounded)
{
	struct pkcs7_blob image = artefact_blob("hello.signed.efi");
	uint8_t digest[32];

	/* Every prefix in a buffer of its own size: refused, or hashed within it (ASan). */
	for (size_t n = 0; n < image.size; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		struct authenticode_certs certs;
		struct pkcs7_blob p7;

		memcpy(copy, image.data, n);
		(void)authenticode_digest(copy, n, HASH_SHA256, digest);
		if (authenticode_certs_begin(copy, n, &certs) == EFI_SUCCESS)
			while (authenticode_certs_next(&certs, &p7) == EFI_SUCCESS)
				;
		/* Cutting the certificate table cuts the directory's promise: refused. */
		EXPECT(authenticode_certs_begin(copy, n, &certs) == EFI_INVALID_PARAMETER);
		free(copy);
	}
	artefact_free(image);
}

/* The digest pesign printed for an artefact in real.txt, in hex. */
static bool real_digest(const char *name, char *hex)
{
	char path[512], file[256], alg[16];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/real.txt", artefact_dir());
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fscanf(f, "%255s %15s %128s", file, alg, hex) == 3)
		found = strcmp(file, name) == 0;
	fclose(f);
	return found;
}

TEST(authenticode_debian_shim_and_grub)
{
	/* shim 16.1: signed twice by Microsoft, through its UEFI CA 2011 (in OVMF's db) and its
	 * UEFI CA 2023 (not there); GRUB: by Debian's signer, through Debian's Secure Boot CA
	 * (in shim). */
	static const struct {
		const char *image, *trusted, *other;
		size_t count;
	} cases[] = {{"shimx64.signed.efi", "ms-uefi-ca.der", "debian-ca.der", 2},
		     {"grubx64.signed.efi", "debian-ca.der", "ms-uefi-ca.der", 1}};
	char want[2 * HASH_MAX_SIZE + 1], got[2 * HASH_MAX_SIZE + 1];
	EFI_STATUS v[4];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT(real_digest(cases[i].image, want));
		digest_hex(cases[i].image, HASH_SHA256, got);
		EXPECT(strcmp(got, want) == 0);
		EXPECT_EQ(check_signatures(cases[i].image, cases[i].trusted, v), cases[i].count);
		EXPECT_STATUS(v[0], EFI_SUCCESS);
		for (size_t j = 1; j < cases[i].count; j++)
			EXPECT_STATUS(v[j], EFI_SECURITY_VIOLATION);
		EXPECT_EQ(check_signatures(cases[i].image, cases[i].other, v), cases[i].count);
		for (size_t j = 0; j < cases[i].count; j++)
			EXPECT_STATUS(v[j], EFI_SECURITY_VIOLATION);
	}
}
