/* crypto/siglist.c on lists made by efitools (cert-to-efi-sig-list, hash-to-efi-sig-list;
 * tests/crypto/mkartefacts) and on malformed ones. */
#include <stdlib.h>
#include <string.h>

#include "crypto_artefacts.h"
#include "support/test.h"
#include <efi/image_authentication.h>
#include <ember/crypto/authenticode.h>
#include <ember/crypto/siglist.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

/* cert-to-efi-sig-list -g in tests/crypto/mkartefacts */
static const EFI_GUID owner = {
    0x11111111, 0x2222, 0x3333, {0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55}};

TEST(siglist_efitools_certificate_lists)
{
	struct pkcs7_blob esl = artefact_blob("two.esl"), root = artefact_blob("root.der"),
			  other = artefact_blob("other.der");
	struct siglist_iter it;
	struct siglist_entry e;

	ASSERT_STATUS(siglist_check(esl.data, esl.size, false), EFI_SUCCESS);
	siglist_begin(&it, esl.data, esl.size);
	ASSERT_STATUS(siglist_next(&it, &e), EFI_SUCCESS);
	EXPECT_EQ(e.type, SIGLIST_X509);
	EXPECT(guid_eq(&e.owner, &owner));
	EXPECT(e.size == root.size && memcmp(e.data, root.data, root.size) == 0);
	ASSERT_STATUS(siglist_next(&it, &e), EFI_SUCCESS);
	EXPECT(e.size == other.size && memcmp(e.data, other.data, other.size) == 0);
	EXPECT_STATUS(siglist_next(&it, &e), EFI_NOT_FOUND);
	EXPECT(siglist_contains(esl.data, esl.size, SIGLIST_X509, other.data, other.size));
	/* A prefix of a certificate is not the certificate. */
	EXPECT(!siglist_contains(esl.data, esl.size, SIGLIST_X509, other.data, other.size - 1));
	EXPECT(!siglist_contains(esl.data, esl.size, SIGLIST_SHA256, other.data, 32));
	artefact_free(esl);
	artefact_free(root);
	artefact_free(other);
}

TEST(siglist_efitools_hash_list_holds_authenticode_digest)
{
	struct pkcs7_blob esl = artefact_blob("hello.hash.esl");
	struct pkcs7_blob image = artefact_blob("hello.signed.efi");
	uint8_t digest[32];
	struct siglist_iter it;
	struct siglist_entry e;

	ASSERT_STATUS(siglist_check(esl.data, esl.size, false), EFI_SUCCESS);
	ASSERT_STATUS(authenticode_digest(image.data, image.size, HASH_SHA256, digest),
		      EFI_SUCCESS);
	siglist_begin(&it, esl.data, esl.size);
	ASSERT_STATUS(siglist_next(&it, &e), EFI_SUCCESS);
	EXPECT_EQ(e.type, SIGLIST_SHA256);
	EXPECT(e.size == 32 && memcmp(e.data, digest, 32) == 0);
	EXPECT(siglist_contains(esl.data, esl.size, SIGLIST_SHA256, digest, 32));
	digest[31] ^= 1;
	EXPECT(!siglist_contains(esl.data, esl.size, SIGLIST_SHA256, digest, 32));
	artefact_free(esl);
	artefact_free(image);
}

TEST(siglist_truncations_refused)
{
	struct pkcs7_blob esl = artefact_blob("two.esl"), first = artefact_blob("root.esl");

	/* Only the empty chain, the first list alone and the whole chain are whole chains. */
	for (size_t n = 0; n <= esl.size; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		bool whole = n == 0 || n == first.size || n == esl.size;

		memcpy(copy, esl.data, n);
		EXPECT_STATUS(siglist_check(copy, n, true),
			      whole ? EFI_SUCCESS : EFI_INVALID_PARAMETER);
		free(copy);
	}
	artefact_free(esl);
	artefact_free(first);
}

/* A list of one entry of type with signature_size and header_size, in buf. */
static size_t make_list(uint8_t *buf, const EFI_GUID *type, uint32_t signature_size,
			uint32_t header_size)
{
	EFI_SIGNATURE_LIST list = {*type, (UINT32)sizeof(list) + header_size + signature_size,
				   header_size, signature_size};

	memcpy(buf, &list, sizeof(list));
	memset(buf + sizeof(list), 0x5A, header_size + signature_size);
	return list.SignatureListSize;
}

TEST(siglist_fixed_sizes_enforced)
{
	static const EFI_GUID unknown = {1, 2, 3, {4, 5, 6, 7, 8, 9, 10, 11}};
	uint8_t buf[512];
	size_t n;

	n = make_list(buf, &efi_cert_sha256_guid, 48, 0);
	EXPECT_STATUS(siglist_check(buf, n, false), EFI_SUCCESS);
	n = make_list(buf, &efi_cert_sha256_guid, 47, 0);
	EXPECT_STATUS(siglist_check(buf, n, false), EFI_INVALID_PARAMETER);
	n = make_list(buf, &efi_cert_sha256_guid, 48, 4);
	EXPECT_STATUS(siglist_check(buf, n, false), EFI_INVALID_PARAMETER);
	n = make_list(buf, &efi_cert_x509_sha256_guid, 64, 0);
	EXPECT_STATUS(siglist_check(buf, n, false), EFI_SUCCESS);
	EXPECT(siglist_contains(buf, n, SIGLIST_X509_SHA256, buf + 28 + 16, 32));
	n = make_list(buf, &efi_cert_x509_sha384_guid, 80, 0);
	EXPECT_STATUS(siglist_check(buf, n, false), EFI_SUCCESS);
	n = make_list(buf, &efi_cert_x509_sha512_guid, 96, 0);
	EXPECT_STATUS(siglist_check(buf, n, false), EFI_SUCCESS);
	n = make_list(buf, &efi_cert_x509_sha512_guid, 80, 0);
	EXPECT_STATUS(siglist_check(buf, n, false), EFI_INVALID_PARAMETER);
	/* An owner and nothing else is no signature. */
	n = make_list(buf, &efi_cert_x509_guid, 16, 0);
	EXPECT_STATUS(siglist_check(buf, n, false), EFI_INVALID_PARAMETER);
	n = make_list(buf, &unknown, 40, 8);
	EXPECT_STATUS(siglist_check(buf, n, false), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(siglist_check(buf, n, true), EFI_SUCCESS);
	/* A list claiming more than its buffer. */
	n = make_list(buf, &efi_cert_sha256_guid, 48, 0);
	EXPECT_STATUS(siglist_check(buf, n - 1, true), EFI_INVALID_PARAMETER);
}

TEST(siglist_walk_refuses_unchecked_garbage)
{
	static const uint8_t garbage[40] = {1, 2, 3};
	struct siglist_iter it;
	struct siglist_entry e;

	siglist_begin(&it, garbage, sizeof(garbage));
	EXPECT_STATUS(siglist_next(&it, &e), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(siglist_next(&it, &e), EFI_NOT_FOUND);
}
