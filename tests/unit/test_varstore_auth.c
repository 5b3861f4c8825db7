/* Time-based authenticated variables (varstore/var_auth.c, var_modes.c), UEFI 2.10 8.2.6
 * and 32.3, with fake signatures (fake_pkcs7.h): Setup and User Mode, who may sign PK,
 * KEK and db, timestamps, appends of signature lists, private variables, plain writes,
 * malformed descriptors, and the values across a remount. */
#include <string.h>

#include "support/test.h"
#include "fake_pkcs7.h"
#include "test_varstore.h"
#include <efi/image_authentication.h>
#include <ember/lib/guids.h>

#define NBR                                                                                        \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define AT EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS
#define NBRA (NBR | AT)
#define APPEND EFI_VARIABLE_APPEND_WRITE

static struct nor_sim flash;
static struct test_vars tv;
static struct var_service *svc;
static struct fake_key pk, kek, other;
static const EFI_GUID *gv = &efi_global_variable_guid, *sdb = &efi_image_security_database_guid;
static UINT8 buf[0x4000], esl[0x1000];

static void mount(void)
{
	test_vars_mount(&tv, &flash.dev, 0);
	svc = &tv.svc;
	fake_crypto_install(svc);
	var_globals_install(svc);
}

static void setup(void)
{
	nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	mount();
	fake_key_init(&pk, "Test PK");
	fake_key_init(&kek, "Test KEK");
	fake_key_init(&other, "Somebody else");
}

static void teardown(void)
{
	test_vars_unmount(&tv);
	nor_free(&flash);
}

static UINT8 read_u8(const CHAR16 *name)
{
	UINT8 v = 0xee;
	UINTN size = 1;

	var_get(svc, name, gv, NULL, &size, &v);
	return v;
}

/* An authenticated write of payload to name/guid by k. */
static EFI_STATUS auth_set(const struct fake_key *k, const CHAR16 *name, const EFI_GUID *guid,
			   UINT32 attributes, UINT8 second, const void *payload, UINT32 size)
{
	UINT32 n = fake_auth_write(buf, k, name, guid, attributes, 2024, second, payload, size);

	return var_set(svc, name, guid, attributes, n, buf);
}

static EFI_STATUS enroll_pk(UINT8 second)
{
	UINT32 n = fake_esl_x509(esl, &pk, 1);

	return auth_set(&pk, u"PK", gv, NBRA, second, esl, n);
}

static EFI_STATUS enroll_kek(UINT8 second)
{
	UINT32 n = fake_esl_x509(esl, &kek, 2);

	return auth_set(&pk, u"KEK", gv, NBRA, second, esl, n);
}

TEST(auth_pk_enrolment_moves_to_user_mode)
{
	UINT8 value[256];
	UINTN size = sizeof(value);
	UINT32 attributes, n;

	setup();
	EXPECT_EQ(read_u8(u"SetupMode"), 1);
	EXPECT_EQ(read_u8(u"SecureBoot"), 0);
	/* Setup Mode: a self-signed PK is enrolled. */
	ASSERT_STATUS(enroll_pk(1), EFI_SUCCESS);
	EXPECT_EQ(read_u8(u"SetupMode"), 0);
	EXPECT_EQ(read_u8(u"SecureBoot"), 1);
	ASSERT_STATUS(var_get(svc, u"PK", gv, &attributes, &size, value), EFI_SUCCESS);
	EXPECT_EQ(attributes, NBRA);
	n = fake_esl_x509(esl, &pk, 1);
	EXPECT_EQ(size, n);
	EXPECT(!memcmp(value, esl, n));
	/* The modes are read-only. */
	UINT8 one = 1;
	EXPECT_STATUS(var_set(svc, u"SetupMode", gv,
			      EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS, 1,
			      &one),
		      EFI_WRITE_PROTECTED);
	/* After a restart the firmware finds the PK again. */
	test_vars_unmount(&tv);
	mount();
	EXPECT_EQ(read_u8(u"SetupMode"), 0);
	EXPECT_EQ(read_u8(u"SecureBoot"), 1);
	teardown();
}

TEST(auth_user_mode_kek_needs_pk_and_db_needs_kek_or_pk)
{
	UINT32 n;

	setup();
	ASSERT_STATUS(enroll_pk(1), EFI_SUCCESS);
	n = fake_esl_x509(esl, &kek, 2);
	EXPECT_STATUS(auth_set(&kek, u"KEK", gv, NBRA, 2, esl, n), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(auth_set(&other, u"KEK", gv, NBRA, 2, esl, n), EFI_SECURITY_VIOLATION);
	ASSERT_STATUS(enroll_kek(2), EFI_SUCCESS);
	n = fake_esl_sha256(esl, 0x10, 2);
	EXPECT_STATUS(auth_set(&other, u"db", sdb, NBRA, 3, esl, n), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(auth_set(&kek, u"db", sdb, NBRA, 3, esl, n), EFI_SUCCESS);
	EXPECT_STATUS(auth_set(&pk, u"db", sdb, NBRA, 4, esl, n), EFI_SUCCESS);
	EXPECT_STATUS(auth_set(&kek, u"dbx", sdb, NBRA, 5, esl, n), EFI_SUCCESS);
	EXPECT_STATUS(auth_set(&kek, u"dbt", sdb, NBRA, 5, esl, n), EFI_SUCCESS);
	/* A signature over other bytes (here: another timestamp) fails. */
	n = fake_auth_write(buf, &kek, u"db", sdb, NBRA, 2024, 9, esl, n);
	buf[0] = 0xe9; /* the year 2025: the signed message no longer matches */
	buf[1] = 0x07;
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, n, buf), EFI_SECURITY_VIOLATION);
	teardown();
}

TEST(auth_setup_mode_writes_without_signature_check)
{
	UINT32 n = fake_esl_sha256(esl, 0x20, 1);

	setup();
	/* 32.3: in Setup Mode the policy variables are written without a signature check,
	 * but the descriptor must be there. */
	EXPECT_STATUS(auth_set(NULL, u"db", sdb, NBRA, 1, esl, n), EFI_SUCCESS);
	EXPECT_STATUS(auth_set(&other, u"KEK", gv, NBRA, 1, esl, fake_esl_x509(esl, &kek, 2)),
		      EFI_SUCCESS);
	n = fake_esl_sha256(esl, 0x20, 1);
	EXPECT_STATUS(var_set(svc, u"dbx", sdb, NBRA, n, esl), EFI_SECURITY_VIOLATION);
	teardown();
}

TEST(auth_timestamps_must_increase_except_appends)
{
	UINT32 n;

	setup();
	ASSERT_STATUS(enroll_pk(1), EFI_SUCCESS);
	n = fake_esl_sha256(esl, 0x30, 1);
	ASSERT_STATUS(auth_set(&pk, u"db", sdb, NBRA, 10, esl, n), EFI_SUCCESS);
	EXPECT_STATUS(auth_set(&pk, u"db", sdb, NBRA, 10, esl, n), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(auth_set(&pk, u"db", sdb, NBRA, 9, esl, n), EFI_SECURITY_VIOLATION);
	/* An append may carry an older timestamp; the stored one stays the later. */
	n = fake_esl_sha256(esl, 0x31, 1);
	EXPECT_STATUS(auth_set(&pk, u"db", sdb, NBRA | APPEND, 5, esl, n), EFI_SUCCESS);
	EXPECT_STATUS(auth_set(&pk, u"db", sdb, NBRA, 10, esl, n), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(auth_set(&pk, u"db", sdb, NBRA | APPEND, 20, esl, n), EFI_SUCCESS);
	EXPECT_STATUS(auth_set(&pk, u"db", sdb, NBRA, 15, esl, n), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(auth_set(&pk, u"db", sdb, NBRA, 21, esl, n), EFI_SUCCESS);
	/* A replay of the PK enrolment. */
	EXPECT_STATUS(enroll_pk(1), EFI_SECURITY_VIOLATION);
	teardown();
}

TEST(auth_append_adds_only_new_signatures)
{
	UINT8 value[1024], expect[1024];
	UINTN size = sizeof(value);
	UINT32 n;

	setup();
	ASSERT_STATUS(enroll_pk(1), EFI_SUCCESS);
	n = fake_esl_sha256(esl, 0x40, 2); /* 0x40, 0x41 */
	ASSERT_STATUS(auth_set(&pk, u"db", sdb, NBRA, 2, esl, n), EFI_SUCCESS);
	n = fake_esl_sha256(esl, 0x41, 2); /* 0x41 (there already), 0x42 */
	ASSERT_STATUS(auth_set(&pk, u"db", sdb, NBRA | APPEND, 3, esl, n), EFI_SUCCESS);
	ASSERT_STATUS(var_get(svc, u"db", sdb, NULL, &size, value), EFI_SUCCESS);
	n = fake_esl_sha256(expect, 0x40, 2);
	n += fake_esl_sha256(expect + n, 0x42, 1);
	EXPECT_EQ(size, n);
	EXPECT(!memcmp(value, expect, n));
	/* Everything there already: the value stays as it was. */
	n = fake_esl_sha256(esl, 0x40, 1);
	ASSERT_STATUS(auth_set(&pk, u"db", sdb, NBRA | APPEND, 4, esl, n), EFI_SUCCESS);
	size = sizeof(value);
	ASSERT_STATUS(var_get(svc, u"db", sdb, NULL, &size, value), EFI_SUCCESS);
	EXPECT_EQ(size, 2 * 28 + 3 * 48);
	/* A malformed list is refused, also in an append. */
	n = fake_esl_sha256(esl, 0x50, 1);
	esl[16] ^= 1; /* SignatureListSize */
	EXPECT_STATUS(auth_set(&pk, u"db", sdb, NBRA | APPEND, 5, esl, n), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(auth_set(&pk, u"db", sdb, NBRA, 5, esl, n), EFI_INVALID_PARAMETER);
	teardown();
}

TEST(auth_pk_deletion_returns_to_setup_mode)
{
	UINTN size = 0;

	setup();
	ASSERT_STATUS(enroll_pk(1), EFI_SUCCESS);
	EXPECT_STATUS(auth_set(&other, u"PK", gv, NBRA, 2, NULL, 0), EFI_SECURITY_VIOLATION);
	EXPECT_EQ(read_u8(u"SetupMode"), 0);
	ASSERT_STATUS(auth_set(&pk, u"PK", gv, NBRA, 2, NULL, 0), EFI_SUCCESS);
	EXPECT_STATUS(var_get(svc, u"PK", gv, NULL, &size, NULL), EFI_NOT_FOUND);
	EXPECT_EQ(read_u8(u"SetupMode"), 1);
	EXPECT_EQ(read_u8(u"SecureBoot"), 0);
	/* Nothing to delete any more. */
	EXPECT_STATUS(auth_set(&pk, u"PK", gv, NBRA, 3, NULL, 0), EFI_NOT_FOUND);
	teardown();
}

TEST(auth_pk_holds_one_x509_certificate)
{
	UINT32 n;

	setup();
	n = fake_esl_x509(esl, &pk, 1);
	n += fake_esl_x509(esl + n, &kek, 2);
	EXPECT_STATUS(auth_set(&pk, u"PK", gv, NBRA, 1, esl, n), EFI_INVALID_PARAMETER);
	n = fake_esl_sha256(esl, 1, 1);
	EXPECT_STATUS(auth_set(&pk, u"PK", gv, NBRA, 1, esl, n), EFI_INVALID_PARAMETER);
	n = fake_esl_x509(esl, &pk, 1);
	EXPECT_STATUS(auth_set(&pk, u"PK", gv, NBRA | APPEND, 1, esl, n), EFI_INVALID_PARAMETER);
	EXPECT_EQ(read_u8(u"SetupMode"), 1);
	teardown();
}

TEST(auth_plain_writes_to_authenticated_variables)
{
	UINT32 n = fake_esl_sha256(esl, 0x60, 1);

	setup();
	/* Creating a policy variable without the attribute (32.6: they are authenticated). */
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBR, n, esl), EFI_INVALID_PARAMETER);
	ASSERT_STATUS(auth_set(NULL, u"db", sdb, NBRA, 1, esl, n), EFI_SUCCESS);
	/* As OVMF: the attributes differ from the existing variable's. */
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBR, n, esl), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBR, 0, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(var_set(svc, u"db", sdb, 0, 0, NULL), EFI_INVALID_PARAMETER);
	/* Other attributes with the authenticated one. */
	n = fake_auth_write(buf, NULL, u"db", sdb, NBRA & ~EFI_VARIABLE_RUNTIME_ACCESS, 2024, 2,
			    esl, n);
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA & ~EFI_VARIABLE_RUNTIME_ACCESS, n, buf),
		      EFI_INVALID_PARAMETER);
	/* A private authenticated variable cannot be deleted without a signature. */
	EFI_GUID g = test_var_guid(7);
	ASSERT_STATUS(auth_set(&other, u"Private", &g, NBRA, 1, "abc", 3), EFI_SUCCESS);
	EXPECT_STATUS(var_set(svc, u"Private", &g, 0, 0, NULL), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(var_set(svc, u"Private", &g, NBR, 3, "xyz"), EFI_INVALID_PARAMETER);
	teardown();
}

TEST(auth_malformed_descriptors_are_security_violations)
{
	UINT32 n = fake_esl_sha256(esl, 0x70, 1), size;
	EFI_VARIABLE_AUTHENTICATION_2 *d = (EFI_VARIABLE_AUTHENTICATION_2 *)buf;

	setup();
	ASSERT_STATUS(enroll_pk(1), EFI_SUCCESS);
	size = fake_auth_write(buf, &pk, u"db", sdb, NBRA, 2024, 2, esl, n);
	d->TimeStamp.Nanosecond = 1;
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, size, buf), EFI_SECURITY_VIOLATION);
	size = fake_auth_write(buf, &pk, u"db", sdb, NBRA, 2024, 2, esl, n);
	d->TimeStamp.TimeZone = 60;
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, size, buf), EFI_SECURITY_VIOLATION);
	size = fake_auth_write(buf, &pk, u"db", sdb, NBRA, 2024, 2, esl, n);
	d->AuthInfo.Hdr.wCertificateType = WIN_CERT_TYPE_EFI_PKCS115;
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, size, buf), EFI_SECURITY_VIOLATION);
	size = fake_auth_write(buf, &pk, u"db", sdb, NBRA, 2024, 2, esl, n);
	d->AuthInfo.CertType = efi_cert_x509_guid;
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, size, buf), EFI_SECURITY_VIOLATION);
	size = fake_auth_write(buf, &pk, u"db", sdb, NBRA, 2024, 2, esl, n);
	d->AuthInfo.Hdr.dwLength = size; /* past the end */
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, size, buf), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, 39, buf), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, 0, NULL), EFI_SECURITY_VIOLATION);
	/* Still none: every write was refused. */
	UINTN got = 0;
	EXPECT_STATUS(var_get(svc, u"db", sdb, NULL, &got, NULL), EFI_NOT_FOUND);
	teardown();
}

TEST(auth_private_variables_keep_their_first_signer)
{
	EFI_GUID g = test_var_guid(8);
	UINT8 value[8];
	UINTN size = sizeof(value);
	UINT32 attributes;

	setup();
	ASSERT_STATUS(auth_set(&kek, u"Mine", &g, NBRA, 1, "one", 3), EFI_SUCCESS);
	EXPECT_STATUS(auth_set(&other, u"Mine", &g, NBRA, 2, "two", 3), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(auth_set(NULL, u"Mine", &g, NBRA, 2, "two", 3), EFI_SECURITY_VIOLATION);
	ASSERT_STATUS(auth_set(&kek, u"Mine", &g, NBRA | APPEND, 2, "+", 1), EFI_SUCCESS);
	ASSERT_STATUS(var_get(svc, u"Mine", &g, &attributes, &size, value), EFI_SUCCESS);
	EXPECT_EQ(attributes, NBRA);
	EXPECT_EQ(size, 4);
	EXPECT(!memcmp(value, "one+", 4));
	/* The signer survives a restart. */
	test_vars_unmount(&tv);
	mount();
	EXPECT_STATUS(auth_set(&other, u"Mine", &g, NBRA, 3, NULL, 0), EFI_SECURITY_VIOLATION);
	ASSERT_STATUS(auth_set(&kek, u"Mine", &g, NBRA, 3, NULL, 0), EFI_SUCCESS);
	/* Deleted: anyone may create it again. */
	EXPECT_STATUS(auth_set(&other, u"Mine", &g, NBRA, 4, "new", 3), EFI_SUCCESS);
	teardown();
}

TEST(auth_unsupported_without_crypto_and_query_accepts_it)
{
	UINT64 max, left, largest;
	UINT32 n;

	setup();
	EXPECT_STATUS(var_query(svc, NBRA, &max, &left, &largest), EFI_SUCCESS);
	EXPECT_STATUS(
	    var_query(svc, NBR | EFI_VARIABLE_AUTHENTICATED_WRITE_ACCESS, &max, &left, &largest),
	    EFI_UNSUPPORTED);
	var_service_set_crypto(svc, NULL, NULL);
	EXPECT_STATUS(var_query(svc, NBRA, &max, &left, &largest), EFI_UNSUPPORTED);
	n = fake_esl_x509(esl, &pk, 1);
	n = fake_auth_write(buf, &pk, u"PK", gv, NBRA, 2024, 1, esl, n);
	EXPECT_STATUS(var_set(svc, u"PK", gv, NBRA, n, buf), EFI_UNSUPPORTED);
	teardown();
}

TEST(auth_firmware_writes_take_the_value_as_given)
{
	UINT32 n = fake_esl_x509(esl, &pk, 1);

	setup();
	/* Import and enrolment tools write as the firmware: no descriptor. */
	ASSERT_STATUS(var_set_firmware(svc, u"PK", gv, NBRA, n, esl), EFI_SUCCESS);
	EXPECT_EQ(read_u8(u"SetupMode"), 0);
	EXPECT_STATUS(auth_set(&pk, u"KEK", gv, NBRA, 1, esl, n), EFI_SUCCESS);
	teardown();
}

TEST(auth_template_defaults_are_published_read_only)
{
	EFI_GUID defaults = EMBER_SECURE_BOOT_DEFAULTS_GUID;
	UINT8 value[512];
	UINTN size = sizeof(value);
	UINT32 attributes, n;

	setup();
	n = fake_esl_sha256(esl, 0x77, 2);
	ASSERT_STATUS(
	    var_set(svc, u"dbDefault", &defaults, NBR & ~EFI_VARIABLE_RUNTIME_ACCESS, n, esl),
	    EFI_SUCCESS);
	ASSERT_STATUS(
	    var_set(svc, u"KEKDefault", &defaults, NBR & ~EFI_VARIABLE_RUNTIME_ACCESS, 5, "junk!"),
	    EFI_SUCCESS);
	test_vars_unmount(&tv);
	mount();
	ASSERT_STATUS(var_get(svc, u"dbDefault", gv, &attributes, &size, value), EFI_SUCCESS);
	EXPECT_EQ(attributes, EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS);
	EXPECT_EQ(size, n);
	EXPECT(!memcmp(value, esl, n));
	EXPECT_STATUS(var_set(svc, u"dbDefault", gv, attributes, 0, NULL), EFI_WRITE_PROTECTED);
	/* Not a signature list: not published. */
	size = sizeof(value);
	EXPECT_STATUS(var_get(svc, u"KEKDefault", gv, NULL, &size, value), EFI_NOT_FOUND);
	size = sizeof(value);
	EXPECT_STATUS(var_get(svc, u"PKDefault", gv, NULL, &size, value), EFI_NOT_FOUND);
	teardown();
}

TEST(auth_writes_after_exit_boot_services_and_in_virtual_mode)
{
	UINT8 value[256];
	UINTN size = sizeof(value);

	setup();
	ASSERT_STATUS(enroll_pk(1), EFI_SUCCESS);
	svc->at_runtime = true;
	/* An OS in physical mode (Linux with efi=novamap) updates KEK through efivarfs. */
	EXPECT_STATUS(enroll_kek(2), EFI_SUCCESS);
	size = sizeof(value);
	EXPECT_STATUS(var_get(svc, u"KEK", gv, NULL, &size, value), EFI_SUCCESS);
	/* After SetVirtualAddressMap too (its slot map converts the library's tables): PK
	 * deleted by its own signature, back to Setup Mode. */
	svc->virtual_mode = true;
	EXPECT_STATUS(auth_set(&pk, u"PK", gv, NBRA, 3, NULL, 0), EFI_SUCCESS);
	size = sizeof(value);
	EXPECT_STATUS(var_get(svc, u"PK", gv, NULL, &size, value), EFI_NOT_FOUND);
	EXPECT_EQ(read_u8(u"SetupMode"), 1);
	teardown();
}
