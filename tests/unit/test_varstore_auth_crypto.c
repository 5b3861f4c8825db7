/* Authenticated variables with the real pkcs7_verify and SHA-256 (crypto/) on an update
 * efitools signed when the unit tests were built (tests/crypto/mkartefacts: db.auth, the
 * root certificate's list signed by kek at 2024-01-02 03:04:05). */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "crypto_artefacts.h"
#include "test_varstore.h"
#include <efi/image_authentication.h>
#include <ember/lib/guids.h>
#include <ember/core/core.h>
#include "../../crypto/arena.h"

#define NBRA                                                                                       \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |                             \
	 EFI_VARIABLE_RUNTIME_ACCESS | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)

static const EFI_GUID *gv = &efi_global_variable_guid, *sdb = &efi_image_security_database_guid;

/* An EFI_SIGNATURE_LIST of one X509 certificate (malloc'ed). */
static UINT8 *esl_of(const UINT8 *der, size_t der_size, UINT32 *size)
{
	EFI_SIGNATURE_LIST l = {EFI_CERT_X509_GUID, 0, 0, 16 + (UINT32)der_size};
	UINT8 *out = malloc(sizeof(l) + 16 + der_size);

	l.SignatureListSize = (UINT32)sizeof(l) + l.SignatureSize;
	memcpy(out, &l, sizeof(l));
	memset(out + sizeof(l), 0x5a, 16);
	memcpy(out + sizeof(l) + 16, der, der_size);
	*size = l.SignatureListSize;
	return out;
}

TEST(auth_real_signature_from_efitools)
{
	struct nor_sim flash;
	struct test_vars tv;
	struct var_service *svc;
	size_t auth_size, pk_size, kek_der_size;
	UINT8 *auth = artefact_read("db.auth", &auth_size);
	UINT8 *pk = artefact_read("root.esl", &pk_size);
	UINT8 *kek_der = artefact_read("kek.der", &kek_der_size);
	UINT8 *kek, value[4096];
	UINT32 kek_size;
	UINTN size = sizeof(value);

	ASSERT(auth && pk && kek_der);
	kek = esl_of(kek_der, kek_der_size, &kek_size);
	nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	ASSERT_STATUS(test_vars_mount(&tv, &flash.dev, 0), EFI_SUCCESS);
	svc = &tv.svc;
	var_service_set_crypto(svc, pkcs7_verify, hash_buffer);
	ASSERT_STATUS(var_set_firmware(svc, u"PK", gv, NBRA, pk_size, pk), EFI_SUCCESS);
	/* User Mode: kek signed it, but only PK (root) may sign db yet. */
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, auth_size, auth), EFI_SECURITY_VIOLATION);
	ASSERT_STATUS(var_set_firmware(svc, u"KEK", gv, NBRA, kek_size, kek), EFI_SUCCESS);
	/* A changed byte of the signed data. */
	auth[auth_size - 1] ^= 1;
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, auth_size, auth), EFI_SECURITY_VIOLATION);
	auth[auth_size - 1] ^= 1;
	ASSERT_STATUS(var_set(svc, u"db", sdb, NBRA, auth_size, auth), EFI_SUCCESS);
	ASSERT_STATUS(var_get(svc, u"db", sdb, NULL, &size, value), EFI_SUCCESS);
	EXPECT(size == pk_size && !memcmp(value, pk, pk_size)); /* root.esl is the payload */
	/* The same update again is a replay. */
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, auth_size, auth), EFI_SECURITY_VIOLATION);
	test_vars_unmount(&tv);
	nor_free(&flash);
	free(auth);
	free(pk);
	free(kek_der);
	free(kek);
}

/* After ExitBootServices (physical and virtual mode) the real verification runs on
 * crypto/arena.c and gives every byte back. */
static void db_update_at_runtime(void)
{
	struct nor_sim flash;
	struct test_vars tv;
	struct var_service *svc;
	size_t auth_size, pk_size, kek_der_size;
	UINT8 *auth = artefact_read("db.auth", &auth_size);
	UINT8 *pk = artefact_read("root.esl", &pk_size);
	UINT8 *kek_der = artefact_read("kek.der", &kek_der_size);
	UINT8 *kek;
	UINT32 kek_size;

	ASSERT(auth && pk && kek_der);
	kek = esl_of(kek_der, kek_der_size, &kek_size);
	nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	ASSERT_STATUS(test_vars_mount(&tv, &flash.dev, 0), EFI_SUCCESS);
	svc = &tv.svc;
	var_service_set_crypto(svc, pkcs7_verify, hash_buffer);
	ASSERT_STATUS(var_set_firmware(svc, u"PK", gv, NBRA, pk_size, pk), EFI_SUCCESS);
	ASSERT_STATUS(var_set_firmware(svc, u"KEK", gv, NBRA, kek_size, kek), EFI_SUCCESS);
	core_boot_services_exited = true;
	svc->at_runtime = true;
	svc->virtual_mode = true;
	auth[auth_size - 1] ^= 1;
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, auth_size, auth), EFI_SECURITY_VIOLATION);
	auth[auth_size - 1] ^= 1;
	EXPECT_STATUS(var_set(svc, u"db", sdb, NBRA, auth_size, auth), EFI_SUCCESS);
	EXPECT_EQ(crypto_arena_in_use(), 0);
	test_vars_unmount(&tv);
	nor_free(&flash);
	free(auth);
	free(pk);
	free(kek_der);
	free(kek);
}

TEST(auth_real_signature_after_exit_boot_services)
{
	RUN_ISOLATED(db_update_at_runtime);
}
