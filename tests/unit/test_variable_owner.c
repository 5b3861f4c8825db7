/* EMBER_VARIABLE_OWNER_PROTOCOL (core/runtime/variable_owner.c): granted only to an image
 * of the firmware's own that has not started, one at a time; refused to any caller while
 * that image is not the one running; gone once revoked. (Writes by the running setup
 * program, and the refusal after an outside program ran, are tested under ember-run:
 * tests/integration/test_setup_backends.py.) */
#include <string.h>

#include "support/test.h"
#include "pe_builder.h"
#include "../../core/services.h"
#include <ember/core/variable_owner.h>
#include <ember/lib/guids.h>

static UINT8 pe_file[PEB_FILE_SIZE];

static EMBER_VARIABLE_OWNER_PROTOCOL *find_owner(void)
{
	EMBER_VARIABLE_OWNER_PROTOCOL *o = NULL;

	if (EFI_ERROR(protocol_locate(&ember_variable_owner_protocol_guid, (void **)&o)))
		return NULL;
	return o;
}

TEST(variable_owner_granted_only_to_the_firmware_setup_image)
{
	static UINT8 esl[28 + 16 + 32];
	EFI_HANDLE outside = NULL, builtin = NULL, second = NULL;
	EMBER_VARIABLE_OWNER_PROTOCOL *o;

	peb_build(pe_file);
	ASSERT_STATUS(
	    image_load(false, core_image_handle, NULL, pe_file, sizeof(pe_file), &outside, NULL),
	    EFI_SUCCESS);
	ASSERT_STATUS(
	    image_load_builtin(core_image_handle, pe_file, sizeof(pe_file), &builtin, NULL),
	    EFI_SUCCESS);
	ASSERT_STATUS(
	    image_load_builtin(core_image_handle, pe_file, sizeof(pe_file), &second, NULL),
	    EFI_SUCCESS);
	/* A program loaded from outside the firmware never gets it. */
	EXPECT_STATUS(variable_owner_grant(outside), EFI_ACCESS_DENIED);
	EXPECT(find_owner() == NULL);
	EXPECT_STATUS(variable_owner_grant(NULL), EFI_ACCESS_DENIED);
	ASSERT_STATUS(variable_owner_grant(builtin), EFI_SUCCESS);
	EXPECT_STATUS(variable_owner_grant(second), EFI_ACCESS_DENIED); /* one at a time */
	o = find_owner();
	ASSERT(o != NULL);
	EXPECT_EQ(o->Revision, EMBER_VARIABLE_OWNER_REVISION);
	/* Found by anyone, usable by nobody while the setup image is not the one running. */
	EXPECT_STATUS(o->Usable(o), EFI_ACCESS_DENIED);
	EXPECT_STATUS(o->SetKey(o, u"db", &efi_image_security_database_guid,
				EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
				    EFI_VARIABLE_RUNTIME_ACCESS |
				    EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS,
				sizeof(esl), esl),
		      EFI_ACCESS_DENIED);
	variable_owner_revoke(second); /* not the granted one: nothing happens */
	EXPECT(find_owner() == o);
	variable_owner_revoke(builtin);
	EXPECT(find_owner() == NULL);
	ASSERT_STATUS(variable_owner_grant(second), EFI_SUCCESS); /* free again */
	variable_owner_revoke(second);
	EXPECT(find_owner() == NULL);
	EXPECT_STATUS(image_unload(outside), EFI_SUCCESS);
	EXPECT_STATUS(image_unload(builtin), EFI_SUCCESS);
	EXPECT_STATUS(image_unload(second), EFI_SUCCESS);
}
