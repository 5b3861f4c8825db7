/* crypto/pkcs7_*.c against signatures made by openssl and efitools (tests/crypto/mkartefacts):
 * good ones verify, and each kind of tampering or distrust is refused. */
#include <stdlib.h>
#include <string.h>

#include "crypto_artefacts.h"
#include "support/test.h"
#include <efi/status.h>
#include <ember/core/core.h>
#include <ember/crypto/pkcs7.h>
#include "../../crypto/arena.h"

/* The verdict of pkcs7_verify on artefacts (trusted_name NULL: no trust list). */
static EFI_STATUS verify_with(const char *p7_name, const char *content_name,
			      const char *trusted_name)
{
	struct pkcs7_blob p7 = artefact_blob(p7_name), content = {NULL, 0}, trusted = {NULL, 0};
	EFI_STATUS status;

	if (content_name)
		content = artefact_blob(content_name);
	if (trusted_name)
		trusted = artefact_blob(trusted_name);
	status = pkcs7_verify(p7, content, &trusted, trusted_name ? 1 : 0, NULL);
	artefact_free(p7);
	artefact_free(content);
	artefact_free(trusted);
	return status;
}

static bool blob_is(struct pkcs7_blob blob, const char *name)
{
	struct pkcs7_blob want = artefact_blob(name);
	bool same = blob.size == want.size && memcmp(blob.data, want.data, want.size) == 0;

	artefact_free(want);
	return same;
}

TEST(pkcs7_root_ca_trusted_leaf_signs)
{
	static const char *names[] = {"leaf_sha1.p7",	"leaf_sha256.p7", "leaf_sha384.p7",
				      "leaf_sha512.p7", "leaf_noattr.p7", "leaf_pss.p7"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		EXPECT_STATUS(verify_with(names[i], "content.bin", "root.der"), EFI_SUCCESS);
}

TEST(pkcs7_reports_signer_and_top)
{
	struct pkcs7_blob p7 = artefact_blob("leaf_sha256.p7");
	struct pkcs7_blob content = artefact_blob("content.bin");
	struct pkcs7_blob trusted = artefact_blob("root.der");
	struct pkcs7_signer signer;

	ASSERT_STATUS(pkcs7_verify(p7, content, &trusted, 1, &signer), EFI_SUCCESS);
	EXPECT(blob_is(signer.leaf, "leaf.der"));
	EXPECT(blob_is(signer.top, "root.der"));
	/* Both inside p7, never copies. */
	EXPECT(signer.leaf.data > p7.data && signer.leaf.data < p7.data + p7.size);
	EXPECT(signer.top.data > p7.data && signer.top.data < p7.data + p7.size);
	artefact_free(p7);
	artefact_free(content);
	artefact_free(trusted);
}

TEST(pkcs7_signer_certificate_itself_trusted)
{
	struct pkcs7_blob p7 = artefact_blob("leaf_nochain.p7");
	struct pkcs7_blob content = artefact_blob("content.bin");
	struct pkcs7_blob trusted = artefact_blob("leaf.der");
	struct pkcs7_signer signer;

	/* The leaf is not self-issued: trusted by its bytes, with or without its issuer. */
	EXPECT_STATUS(pkcs7_verify(p7, content, &trusted, 1, &signer), EFI_SUCCESS);
	EXPECT(blob_is(signer.top, "leaf.der"));
	artefact_free(p7);
	artefact_free(content);
	artefact_free(trusted);
	EXPECT_STATUS(verify_with("leaf_sha256.p7", "content.bin", "leaf.der"), EFI_SUCCESS);
	EXPECT_STATUS(verify_with("other.p7", "content.bin", "other.der"), EFI_SUCCESS);
}

TEST(pkcs7_embedded_content)
{
	EXPECT_STATUS(verify_with("leaf_embedded.p7", NULL, "root.der"), EFI_SUCCESS);
	/* Detached without content: nothing to check against. */
	EXPECT_STATUS(verify_with("leaf_sha256.p7", NULL, "root.der"), EFI_INVALID_PARAMETER);
}

TEST(pkcs7_untrusted_signer_refused)
{
	EXPECT_STATUS(verify_with("leaf_sha256.p7", "content.bin", "other.der"),
		      EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(verify_with("leaf_nochain.p7", "content.bin", "kek.der"),
		      EFI_SECURITY_VIOLATION);
	/* No trust list: any valid signature is accepted (private authenticated variables). */
	EXPECT_STATUS(verify_with("other.p7", "content.bin", NULL), EFI_SUCCESS);
}

TEST(pkcs7_issuer_not_a_ca_refused)
{
	/* leaf2 is issued by leaf, whose basicConstraints say it is no CA. */
	EXPECT_STATUS(verify_with("leaf2.p7", "content.bin", "root.der"), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(verify_with("leaf2.p7", "content.bin", "leaf.der"), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(verify_with("leaf2.p7", "content.bin", "leaf2.der"), EFI_SUCCESS);
}

TEST(pkcs7_rsa4096_sha512)
{
	EXPECT_STATUS(verify_with("big.p7", "content.bin", "big.der"), EFI_SUCCESS);
	EXPECT_STATUS(verify_with("big.p7", "content.bin", "root.der"), EFI_SECURITY_VIOLATION);
}

TEST(pkcs7_signer_by_key_identifier_unsupported)
{
	/* Well-formed, but its signer cannot be matched: unsupported, not malformed. */
	EXPECT_STATUS(verify_with("leaf_keyid.p7", "content.bin", "root.der"), EFI_UNSUPPORTED);
}

TEST(pkcs7_two_signers_any_one_suffices)
{
	EXPECT_STATUS(verify_with("two_signers.p7", "content.bin", "root.der"), EFI_SUCCESS);
	EXPECT_STATUS(verify_with("two_signers.p7", "content.bin", "other.der"), EFI_SUCCESS);
	EXPECT_STATUS(verify_with("two_signers.p7", "content.bin", "kek.der"),
		      EFI_SECURITY_VIOLATION);
}

TEST(pkcs7_tampered_content_refused)
{
	static const char *names[] = {"leaf_sha256.p7", "leaf_noattr.p7", "leaf_pss.p7"};
	struct pkcs7_blob content = artefact_blob("content.bin");
	struct pkcs7_blob trusted = artefact_blob("root.der");

	((uint8_t *)content.data)[1234] ^= 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct pkcs7_blob p7 = artefact_blob(names[i]);

		EXPECT_STATUS(pkcs7_verify(p7, content, &trusted, 1, NULL), EFI_SECURITY_VIOLATION);
		artefact_free(p7);
	}
	artefact_free(content);
	artefact_free(trusted);
}

/* Where needle first occurs in blob, or NULL. */
static uint8_t *find(struct pkcs7_blob blob, const void *needle, size_t size)
{
	for (size_t i = 0; i + size <= blob.size; i++)
		if (memcmp(blob.data + i, needle, size) == 0)
			return (uint8_t *)blob.data + i;
	return NULL;
}

TEST(pkcs7_tampered_attribute_refused)
{
	/* signingTime (1.2.840.113549.1.9.5) then SET { UTCTime }: change the seconds. */
	static const uint8_t signing_time[] = {0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7,
					       0x0D, 0x01, 0x09, 0x05, 0x31, 0x0F, 0x17};
	static const uint8_t message_digest[] = {0x06, 0x09, 0x2A, 0x86, 0x48, 0x86,
						 0xF7, 0x0D, 0x01, 0x09, 0x04};
	struct pkcs7_blob p7 = artefact_blob("leaf_sha256.p7");
	struct pkcs7_blob content = artefact_blob("content.bin");
	struct pkcs7_blob trusted = artefact_blob("root.der");
	uint8_t *at;

	ASSERT_STATUS(pkcs7_verify(p7, content, &trusted, 1, NULL), EFI_SUCCESS);
	at = find(p7, signing_time, sizeof(signing_time));
	ASSERT(at != NULL);
	at[sizeof(signing_time) + 1 + 11] ^= 1; /* a digit of the seconds */
	EXPECT_STATUS(pkcs7_verify(p7, content, &trusted, 1, NULL), EFI_SECURITY_VIOLATION);
	at[sizeof(signing_time) + 1 + 11] ^= 1;
	/* messageDigest: SET { OCTET STRING (32) }, its first digest byte. */
	at = find(p7, message_digest, sizeof(message_digest));
	ASSERT(at != NULL);
	at[sizeof(message_digest) + 4] ^= 0x80;
	EXPECT_STATUS(pkcs7_verify(p7, content, &trusted, 1, NULL), EFI_SECURITY_VIOLATION);
	artefact_free(p7);
	artefact_free(content);
	artefact_free(trusted);
}

TEST(pkcs7_wrong_key_refused)
{
	/* leaf's SignerInfo carrying other's signature of the same digest (both 2048-bit and
	 * without attributes, so the signature is the last 256 bytes of each). */
	struct pkcs7_blob p7 = artefact_blob("leaf_noattr.p7");
	struct pkcs7_blob by_other = artefact_blob("other_noattr.p7");
	struct pkcs7_blob content = artefact_blob("content.bin");
	struct pkcs7_blob trusted = artefact_blob("root.der");

	ASSERT_STATUS(pkcs7_verify(p7, content, &trusted, 1, NULL), EFI_SUCCESS);
	memcpy((uint8_t *)p7.data + p7.size - 256, by_other.data + by_other.size - 256, 256);
	EXPECT_STATUS(pkcs7_verify(p7, content, &trusted, 1, NULL), EFI_SECURITY_VIOLATION);
	artefact_free(p7);
	artefact_free(by_other);
	artefact_free(content);
	artefact_free(trusted);
}

TEST(pkcs7_truncated_or_garbage_refused)
{
	struct pkcs7_blob p7 = artefact_blob("leaf_sha256.p7");
	struct pkcs7_blob content = artefact_blob("content.bin");
	struct pkcs7_blob trusted = artefact_blob("root.der");
	static const uint8_t garbage[] = {0x30, 0x03, 0x02, 0x01, 0x01};

	/* Each prefix in a buffer of its own size, so ASan sees any read past it. */
	for (size_t n = 0; n < p7.size; n++) {
		uint8_t *copy = malloc(n ? n : 1);

		memcpy(copy, p7.data, n);
		EXPECT_STATUS(
		    pkcs7_verify((struct pkcs7_blob){copy, n}, content, &trusted, 1, NULL),
		    EFI_INVALID_PARAMETER);
		free(copy);
	}
	EXPECT_STATUS(
	    pkcs7_verify((struct pkcs7_blob){garbage, sizeof(garbage)}, content, &trusted, 1, NULL),
	    EFI_INVALID_PARAMETER);
	EXPECT_STATUS(pkcs7_verify((struct pkcs7_blob){NULL, 0}, content, &trusted, 1, NULL),
		      EFI_INVALID_PARAMETER);
	artefact_free(p7);
	artefact_free(content);
	artefact_free(trusted);
}

TEST(pkcs7_efitools_authenticated_variable)
{
	/* db.auth: EFI_TIME, WIN_CERTIFICATE_UEFI_GUID (24 bytes of header) then the bare
	 * SignedData; db.bundle: what sign-efi-sig-list signed. */
	size_t auth_size;
	uint8_t *auth = artefact_read("db.auth", &auth_size);
	struct pkcs7_blob bundle = artefact_blob("db.bundle");
	struct pkcs7_blob kek = artefact_blob("kek.der"), root = artefact_blob("root.der");
	uint32_t length;
	struct pkcs7_blob p7;

	ASSERT(auth_size > 16 + 24);
	memcpy(&length, auth + 16, 4);
	ASSERT(length > 24 && 16 + (size_t)length <= auth_size);
	p7 = (struct pkcs7_blob){auth + 16 + 24, length - 24};
	EXPECT_STATUS(pkcs7_verify(p7, bundle, &kek, 1, NULL), EFI_SUCCESS);
	EXPECT_STATUS(pkcs7_verify(p7, bundle, &root, 1, NULL), EFI_SECURITY_VIOLATION);
	((uint8_t *)bundle.data)[bundle.size - 1] ^= 1;
	EXPECT_STATUS(pkcs7_verify(p7, bundle, &kek, 1, NULL), EFI_SECURITY_VIOLATION);
	free(auth);
	artefact_free(bundle);
	artefact_free(kek);
	artefact_free(root);
}

/* After ExitBootServices the library's memory comes from crypto/arena.c, not the pool (the
 * OS's by then): verification still works there, and gives every byte back. */
void *crypto_calloc(size_t count, size_t size); /* crypto/mbedtls_glue.c */
void crypto_free(void *buffer);

static void verify_at_runtime(void)
{
	void *p;

	core_boot_services_exited = true;
	p = crypto_calloc(10, 10);
	EXPECT(crypto_arena_owns(p));
	crypto_free(p);
	EXPECT_EQ(crypto_arena_in_use(), 0);
	EXPECT_STATUS(verify_with("leaf_sha256.p7", "content.bin", "root.der"), EFI_SUCCESS);
	EXPECT_STATUS(verify_with("two_signers.p7", "content.bin", "kek.der"),
		      EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(verify_with("big.p7", "content.bin", "big.der"), EFI_SUCCESS);
	EXPECT_STATUS(verify_with("leaf_pss.p7", "content.bin", "leaf.der"), EFI_SUCCESS);
	EXPECT_EQ(crypto_arena_in_use(), 0);
}

TEST(pkcs7_verifies_after_exit_boot_services)
{
	RUN_ISOLATED(verify_at_runtime);
}

TEST(crypto_arena_blocks_merge_and_run_out)
{
	void *a = crypto_arena_alloc(1000), *b = crypto_arena_alloc(2000), *c, *big;

	ASSERT(a && b);
	EXPECT(((uintptr_t)a & 15) == 0 && ((uintptr_t)b & 15) == 0);
	EXPECT(crypto_arena_owns(a) && !crypto_arena_owns(&a));
	/* More than the arena holds. */
	EXPECT(crypto_arena_alloc(1 << 20) == NULL);
	crypto_arena_free(a);
	crypto_arena_free(b);
	EXPECT_EQ(crypto_arena_in_use(), 0);
	/* The two blocks and the rest merged back: one allocation of nearly all of it fits. */
	big = crypto_arena_alloc(120 * 1024);
	ASSERT(big != NULL);
	c = crypto_arena_alloc(16 * 1024);
	EXPECT(c == NULL);
	crypto_arena_free(big);
	EXPECT_EQ(crypto_arena_in_use(), 0);
}
