/* EFI_SIGNATURE_LIST chains and certificate names (varstore/var_siglist.c, var_x509.c):
 * what is well formed, the certificates taken for verification, the 8.2.6 merge, and the
 * Common Name and tbsCertificate walk on good and broken DER. */
#include <string.h>

#include "support/test.h"
#include "fake_pkcs7.h"
#include "../../varstore/var_internal.h"
#include <efi/image_authentication.h>

static UINT8 chain[2048];

static void set_u32(UINT8 *at, UINT32 v)
{
	memcpy(at, &v, 4);
}

TEST(siglist_validation)
{
	struct fake_key k;
	UINT32 n;

	fake_key_init(&k, "List");
	EXPECT(var_siglist_valid(chain, 0)); /* empty: a deletion's value */
	n = fake_esl_sha256(chain, 1, 3);
	EXPECT(var_siglist_valid(chain, n));
	EXPECT(!var_siglist_valid(chain, n - 1)); /* truncated */
	EXPECT(!var_siglist_valid(chain, n + 1)); /* a byte after the last list */
	EXPECT(!var_siglist_valid(chain, 27));	  /* shorter than a header */
	set_u32(chain + 24, 16 + 20);		  /* SHA-256 entries of SHA-1 size */
	EXPECT(!var_siglist_valid(chain, n));
	n = fake_esl_sha256(chain, 1, 1);
	set_u32(chain + 16, 28); /* a list without entries */
	EXPECT(!var_siglist_valid(chain, 28));
	n = fake_esl_sha256(chain, 1, 1);
	chain[0] ^= 1; /* an unknown signature type */
	EXPECT(!var_siglist_valid(chain, n));
	n = fake_esl_x509(chain, &k, 1);
	n += fake_esl_sha256(chain + n, 9, 2);
	EXPECT(var_siglist_valid(chain, n));
	EXPECT(!var_siglist_one_x509(chain, n)); /* a second list */
	EXPECT(var_siglist_one_x509(chain, fake_esl_x509(chain, &k, 1)));
	set_u32(chain + 20, 4); /* an X509 list with a header */
	set_u32(chain + 16, 28 + 4 + 16 + k.cert_size);
	EXPECT(!var_siglist_valid(chain, 28 + 4 + 16 + k.cert_size));
	/* A list size that wraps past the end. */
	n = fake_esl_sha256(chain, 1, 1);
	set_u32(chain + 16, 0xfffffff0u);
	EXPECT(!var_siglist_valid(chain, n));
}

TEST(siglist_x509_certificates)
{
	struct fake_key a, b;
	struct pkcs7_blob certs[4];
	UINT32 n;

	fake_key_init(&a, "First");
	fake_key_init(&b, "Second");
	n = fake_esl_x509(chain, &a, 1);
	n += fake_esl_sha256(chain + n, 3, 1);
	n += fake_esl_x509(chain + n, &b, 2);
	ASSERT_EQ(var_siglist_x509(chain, n, certs, 0, 4), 2);
	EXPECT(certs[0].size == a.cert_size && !memcmp(certs[0].data, a.cert, a.cert_size));
	EXPECT(certs[1].size == b.cert_size && !memcmp(certs[1].data, b.cert, b.cert_size));
	/* The count is bounded by max. */
	EXPECT_EQ(var_siglist_x509(chain, n, certs, 3, 4), 4);
}

TEST(siglist_merge_adds_only_new_entries)
{
	static UINT8 add[512], expect[1024];
	UINT32 size, n, e;

	size = fake_esl_sha256(chain, 1, 2); /* 1, 2 */
	n = fake_esl_sha256(add, 2, 2);	     /* 2 (there), 3 */
	n += fake_esl_sha256(add + n, 1, 1); /* 1 (there): its list is dropped */
	ASSERT(var_siglist_merge(chain, &size, sizeof(chain), add, n));
	e = fake_esl_sha256(expect, 1, 2);
	e += fake_esl_sha256(expect + e, 3, 1);
	EXPECT_EQ(size, e);
	EXPECT(!memcmp(chain, expect, e));
	/* The same owner with another signature, or another owner, is new. */
	n = fake_esl_sha256(add, 3, 1);
	add[28] ^= 1; /* the owner GUID */
	ASSERT(var_siglist_merge(chain, &size, sizeof(chain), add, n));
	EXPECT_EQ(size, e + n);
	/* A result larger than the room, or a malformed addition, is refused. */
	size = fake_esl_sha256(chain, 1, 1);
	n = fake_esl_sha256(add, 5, 3);
	EXPECT(!var_siglist_merge(chain, &size, 100, add, n));
	size = fake_esl_sha256(chain, 1, 1);
	EXPECT(!var_siglist_merge(chain, &size, sizeof(chain), add, n - 1));
}

TEST(x509_common_name_and_tbs)
{
	struct fake_key k;
	struct pkcs7_blob cert, cn, tbs;
	/* Certificate { tbs { serial, sig, issuer, validity, subject { O=x } }, ... } */
	static const UINT8 no_cn[] = {0x30, 0x1d, 0x30, 0x16, 0x02, 0x01, 0x01, 0x30,
				      0x00, 0x30, 0x00, 0x30, 0x00, 0x30, 0x0b, 0x31,
				      0x09, 0x30, 0x07, 0x06, 0x03, 0x55, 0x04, 0x0a,
				      0x0c, 0x00, 0x30, 0x00, 0x03, 0x01, 0x00};

	fake_key_init(&k, "Common Name");
	cert = (struct pkcs7_blob){k.cert, k.cert_size};
	ASSERT(var_x509_common_name(cert, &cn));
	EXPECT(cn.size == 11 && !memcmp(cn.data, "Common Name", 11));
	ASSERT(var_x509_tbs(cert, &tbs));
	EXPECT(tbs.data == k.cert + 2 && tbs.size == k.cert_size - 2 - 5);
	/* No version field and no CN: an empty name. */
	cert = (struct pkcs7_blob){no_cn, sizeof(no_cn)};
	ASSERT(var_x509_common_name(cert, &cn));
	EXPECT_EQ(cn.size, 0);
	/* Truncated anywhere: refused, never read past the end. */
	for (UINT32 i = 0; i < k.cert_size; i++) {
		cert = (struct pkcs7_blob){k.cert, i};
		EXPECT(!var_x509_common_name(cert, &cn));
	}
	cert = (struct pkcs7_blob){k.cert + 2, k.cert_size - 2}; /* the tbs alone */
	EXPECT(!var_x509_common_name(cert, &cn));
}
