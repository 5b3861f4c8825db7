/* LoadImage and the security architectural protocols (core/image/load.c, PI 1.8 volume 2
 * 12.8 and 12.9): the protocols installed at the time of the call judge the image, so a
 * loader that reinstalls or hooks them takes over; EFI_ACCESS_DENIED leaves no handle;
 * EFI_SECURITY_VIOLATION gives a handle StartImage refuses; Security alone judges the path;
 * images built into the firmware are not asked about. */
#include <string.h>

#include "support/test.h"
#include "pe_builder.h"
#include "../../core/services.h"
#include <ember/core/devpath.h>
#include <ember/lib/guids.h>
#include <ember/lib/util.h>
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/security.h>

static UINT8 pe_file[PEB_FILE_SIZE];

/* A policy whose verdict the test sets, recording what it was asked. */
struct fake_policy {
	EFI_SECURITY2_ARCH_PROTOCOL security2;
	EFI_SECURITY_ARCH_PROTOCOL security;
	EFI_STATUS verdict;
	UINTN calls, state_calls;
	const void *buffer;
	UINTN size;
	const EFI_DEVICE_PATH_PROTOCOL *path;
};

static struct fake_policy policy_a, policy_b;

static EFI_STATUS EFIAPI fake_authentication(const EFI_SECURITY2_ARCH_PROTOCOL *this,
					     const EFI_DEVICE_PATH_PROTOCOL *file, VOID *buffer,
					     UINTN size, BOOLEAN boot_policy)
{
	struct fake_policy *p = (struct fake_policy *)this;

	(void)boot_policy;
	p->calls++;
	p->buffer = buffer;
	p->size = size;
	p->path = file;
	return p->verdict;
}

static EFI_STATUS EFIAPI fake_state(const EFI_SECURITY_ARCH_PROTOCOL *this, UINT32 status,
				    const EFI_DEVICE_PATH_PROTOCOL *file)
{
	struct fake_policy *p = container_of(this, struct fake_policy, security);

	(void)status;
	p->state_calls++;
	p->path = file;
	return p->verdict;
}

static void policy_init(struct fake_policy *p, EFI_STATUS verdict)
{
	*p = (struct fake_policy){
	    .security2 = {fake_authentication}, .security = {fake_state}, .verdict = verdict};
}

/* The protocols installed before a test (Ember's own policy, when a test ran the init
 * steps), set aside so that the test's are the only ones, and put back after it. */
struct set_aside {
	EFI_HANDLE handle;
	const EFI_GUID *guid;
	void *interface;
};
static struct set_aside aside[4];
static UINTN n_aside;

static void set_aside_installed(void)
{
	const EFI_GUID *guids[] = {&efi_security2_arch_protocol_guid,
				   &efi_security_arch_protocol_guid};

	n_aside = 0;
	for (UINTN g = 0; g < 2; g++) {
		void *interface;
		EFI_HANDLE handle;
		UINTN size = sizeof(handle);
		while (n_aside < 4 &&
		       core_st->BootServices->LocateHandle(ByProtocol, (EFI_GUID *)guids[g], NULL,
							   &size, &handle) == EFI_SUCCESS &&
		       !EFI_ERROR(protocol_get(handle, guids[g], &interface))) {
			ASSERT_STATUS(protocol_uninstall(handle, guids[g], interface), EFI_SUCCESS);
			aside[n_aside++] = (struct set_aside){handle, guids[g], interface};
			size = sizeof(handle);
		}
	}
}

static void put_back_installed(void)
{
	for (UINTN i = 0; i < n_aside; i++) {
		EFI_HANDLE handle = NULL;
		ASSERT_STATUS(protocol_install(&handle, aside[i].guid, aside[i].interface),
			      EFI_SUCCESS);
	}
	n_aside = 0;
}

/* How many handles carry a LoadedImage. */
static UINTN loaded_images(void)
{
	EFI_GUID guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	core_st->BootServices->LocateHandleBuffer(ByProtocol, &guid, NULL, &count, &handles);
	core_st->BootServices->FreePool(handles);
	return count;
}

static EFI_STATUS load(EFI_HANDLE *image)
{
	*image = NULL;
	return core_st->BootServices->LoadImage(FALSE, core_image_handle, NULL, pe_file,
						sizeof(pe_file), image);
}

TEST(security_access_denied_leaves_no_handle)
{
	EFI_HANDLE handle = NULL, image;

	peb_build(pe_file);
	set_aside_installed();
	policy_init(&policy_a, EFI_ACCESS_DENIED);
	ASSERT_STATUS(
	    protocol_install(&handle, &efi_security2_arch_protocol_guid, &policy_a.security2),
	    EFI_SUCCESS);
	EXPECT_STATUS(load(&image), EFI_ACCESS_DENIED);
	EXPECT(image == NULL);
	EXPECT_EQ(policy_a.calls, 1);
	EXPECT(policy_a.buffer == pe_file && policy_a.size == sizeof(pe_file));
	/* The policy says yes: the same image loads. */
	policy_a.verdict = EFI_SUCCESS;
	ASSERT_STATUS(load(&image), EFI_SUCCESS);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	EXPECT_STATUS(
	    protocol_uninstall(handle, &efi_security2_arch_protocol_guid, &policy_a.security2),
	    EFI_SUCCESS);
	put_back_installed();
}

TEST(security_violation_loads_an_image_that_never_starts)
{
	EFI_HANDLE handle = NULL, image;

	peb_build(pe_file);
	set_aside_installed();
	policy_init(&policy_a, EFI_SECURITY_VIOLATION);
	ASSERT_STATUS(
	    protocol_install(&handle, &efi_security2_arch_protocol_guid, &policy_a.security2),
	    EFI_SUCCESS);
	EXPECT_STATUS(load(&image), EFI_SECURITY_VIOLATION);
	ASSERT(image != NULL);
	EXPECT_STATUS(core_st->BootServices->StartImage(image, NULL, NULL), EFI_SECURITY_VIOLATION);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	/* The firmware's own loads (boot options, ember-run's program) keep no such image. */
	{
		const char *reason = NULL;
		UINTN before = loaded_images();
		image = NULL;
		EXPECT_STATUS(image_load(false, core_image_handle, NULL, pe_file, sizeof(pe_file),
					 &image, &reason),
			      EFI_SECURITY_VIOLATION);
		EXPECT(image == NULL);
		EXPECT(reason && strstr(reason, "Secure Boot"));
		EXPECT_EQ(loaded_images(), before);
	}
	EXPECT_STATUS(
	    protocol_uninstall(handle, &efi_security2_arch_protocol_guid, &policy_a.security2),
	    EFI_SUCCESS);
	put_back_installed();
}

/* shim and systemd-stub replace the installed interface or its function: the call goes to
 * what is there at LoadImage time. */
TEST(security_reinstalled_or_hooked_protocol_takes_over)
{
	EFI_HANDLE handle = NULL, image;

	peb_build(pe_file);
	set_aside_installed();
	policy_init(&policy_a, EFI_ACCESS_DENIED);
	policy_init(&policy_b, EFI_SUCCESS);
	ASSERT_STATUS(
	    protocol_install(&handle, &efi_security2_arch_protocol_guid, &policy_a.security2),
	    EFI_SUCCESS);
	EXPECT_STATUS(load(&image), EFI_ACCESS_DENIED);
	ASSERT_STATUS(protocol_reinstall(handle, &efi_security2_arch_protocol_guid,
					 &policy_a.security2, &policy_b.security2),
		      EFI_SUCCESS);
	ASSERT_STATUS(load(&image), EFI_SUCCESS);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	EXPECT_EQ(policy_a.calls, 1);
	EXPECT_EQ(policy_b.calls, 1);
	/* A hooked function in the installed interface. */
	policy_b.verdict = EFI_ACCESS_DENIED;
	EXPECT_STATUS(load(&image), EFI_ACCESS_DENIED);
	policy_b.security2.FileAuthentication = policy_a.security2.FileAuthentication;
	policy_a.verdict = EFI_SUCCESS; /* not asked: the hook reads policy_b's verdict */
	EXPECT_STATUS(load(&image), EFI_ACCESS_DENIED);
	EXPECT_EQ(policy_b.calls, 3);
	EXPECT_STATUS(
	    protocol_uninstall(handle, &efi_security2_arch_protocol_guid, &policy_b.security2),
	    EFI_SUCCESS);
	/* None installed: every image loads. */
	ASSERT_STATUS(load(&image), EFI_SUCCESS);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	put_back_installed();
}

TEST(security_arch_alone_judges_the_path)
{
	EFI_HANDLE handle = NULL, image;
	EFI_DEVICE_PATH_PROTOCOL *path = dp_file_path(u"x.efi");

	peb_build(pe_file);
	set_aside_installed();
	policy_init(&policy_a, EFI_ACCESS_DENIED);
	ASSERT_STATUS(
	    protocol_install(&handle, &efi_security_arch_protocol_guid, &policy_a.security),
	    EFI_SUCCESS);
	EXPECT_STATUS(core_st->BootServices->LoadImage(FALSE, core_image_handle, path, pe_file,
						       sizeof(pe_file), &image),
		      EFI_ACCESS_DENIED);
	EXPECT_EQ(policy_a.state_calls, 1);
	EXPECT(policy_a.path == path);
	EXPECT_STATUS(
	    protocol_uninstall(handle, &efi_security_arch_protocol_guid, &policy_a.security),
	    EFI_SUCCESS);
	pool_free(path);
	put_back_installed();
}

TEST(security_builtin_images_are_not_asked_about)
{
	EFI_HANDLE handle = NULL, image = NULL;
	const char *reason = NULL;

	peb_build(pe_file);
	set_aside_installed();
	policy_init(&policy_a, EFI_ACCESS_DENIED);
	ASSERT_STATUS(
	    protocol_install(&handle, &efi_security2_arch_protocol_guid, &policy_a.security2),
	    EFI_SUCCESS);
	ASSERT_STATUS(
	    image_load_builtin(core_image_handle, pe_file, sizeof(pe_file), &image, &reason),
	    EFI_SUCCESS);
	EXPECT_EQ(policy_a.calls, 0);
	EXPECT_STATUS(core_st->BootServices->UnloadImage(image), EFI_SUCCESS);
	/* The platform's loads of outside images are asked about. */
	EXPECT_STATUS(
	    image_load(false, core_image_handle, NULL, pe_file, sizeof(pe_file), &image, &reason),
	    EFI_ACCESS_DENIED);
	EXPECT(reason && strstr(reason, "Secure Boot"));
	EXPECT_EQ(policy_a.calls, 1);
	EXPECT_STATUS(
	    protocol_uninstall(handle, &efi_security2_arch_protocol_guid, &policy_a.security2),
	    EFI_SUCCESS);
	put_back_installed();
}
