/* Booting one load option (UEFI 2.10, 3.1.1): find its image, hand it the option's data
 * as LoadOptions, say which option is running (BootCurrent), signal ReadyToBoot, and run
 * it under the five-minute watchdog the specification asks for. */
#define LOG_PREFIX "bds: "
#include "bds.h"
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/drivers/measure_boot.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define WATCHDOG_SECONDS 300

struct attempt {
	bool boot_policy;
	EFI_HANDLE image;
	EFI_STATUS status;
	UINTN tried; /* full paths LoadImage was given */
	bool denied; /* one was refused by the security policy (Secure Boot) */
};

static bool try_load(EFI_DEVICE_PATH_PROTOCOL *full_path, void *ctx);

/* Network boot: the file LoadFile gives, or the boot file of the RAM disk it makes. */
static bool try_load_file(EFI_DEVICE_PATH_PROTOCOL *full_path, struct attempt *a)
{
	EFI_DEVICE_PATH_PROTOCOL *disk;
	void *buffer;
	UINTN size;

	if (!a->boot_policy || !bds_load_file_read(full_path, &buffer, &size, &disk, &a->status))
		return false;
	if (disk) {
		bds_expand_path(disk, try_load, a);
		pool_free(disk);
	} else if (!EFI_ERROR(a->status)) {
		a->status =
		    image_load(true, core_image_handle, full_path, buffer, size, &a->image, NULL);
		pool_free(buffer);
	}
	return true;
}

static bool try_load(EFI_DEVICE_PATH_PROTOCOL *full_path, void *ctx)
{
	struct attempt *a = ctx;

	if (!try_load_file(full_path, a))
		a->status = image_load(a->boot_policy, core_image_handle, full_path, NULL, 0,
				       &a->image, NULL);
	a->tried++;
	if (a->status == EFI_ACCESS_DENIED || a->status == EFI_SECURITY_VIOLATION)
		a->denied = true;
	if (EFI_ERROR(a->status)) {
		CHAR16 *text = dp_to_text(full_path, true, true);
		log_debug("loading %ls: %r\n", text ? text : u"(path)", a->status);
		pool_free(text);
	}
	pool_free(full_path);
	return !EFI_ERROR(a->status);
}

EFI_STATUS bds_load(const EFI_DEVICE_PATH_PROTOCOL *path, bool boot_policy, EFI_HANDLE *image)
{
	struct attempt a = {boot_policy, NULL, EFI_NOT_FOUND, 0, false};

	bds_expand_path(path, try_load, &a);
	if (!a.tried)
		log_debug("the path leads to no file to load\n");
	/* A refusal says more than the last expansion's failure. */
	if (EFI_ERROR(a.status) && a.denied)
		a.status = EFI_ACCESS_DENIED;
	if (!EFI_ERROR(a.status))
		*image = a.image;
	return a.status;
}

EFI_STATUS bds_start_image(EFI_HANDLE image, const CHAR16 *what)
{
	EFI_STATUS status;

	log_info("starting %ls\n", what);
	core_watchdog_set(WATCHDOG_SECONDS);
	status = image_start(image, NULL, NULL);
	core_watchdog_set(0);
	log_info("%ls returned %r\n", what, status);
	return status;
}

/* The option's OptionalData becomes the image's LoadOptions; the marker of Ember's own
 * options is Ember's bookkeeping, not an argument: a loader that reads LoadOptions as its
 * command line (systemd-stub, the kernel's stub) must find none. */
static void pass_optional_data(EFI_HANDLE image, const struct load_option *lo)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	void *copy;

	if (!lo->optional_size || bds_is_auto_option(lo) ||
	    EFI_ERROR(protocol_get(image, &efi_loaded_image_protocol_guid, (void **)&li)))
		return;
	copy = pool_alloc_typed(EfiLoaderData, lo->optional_size);
	if (!copy) {
		log_debug("no memory for %llu bytes of LoadOptions\n",
			  (unsigned long long)lo->optional_size);
		return;
	}
	mem_copy(copy, lo->optional_data, lo->optional_size);
	li->LoadOptions = copy;
	li->LoadOptionsSize = (UINT32)lo->optional_size;
}

EFI_STATUS bds_boot(struct bds_option *option)
{
	EFI_HANDLE image;
	EFI_STATUS status;
	UINT16 current = option->number;

	/* Measured before the image is loaded (and itself measured), as firmware that signals
	 * ReadyToBoot first does: the separators then precede the boot application. */
	measure_boot_attempt();
	status = bds_load(option->lo.file_path, true, &image);
	if (status == EFI_ACCESS_DENIED) {
		/* UEFI 2.10 3.1: the boot manager goes on with the next option; say why. */
		bds_say("%ls%04X \"%ls\": the image was refused by Secure Boot\r\n", option->kind,
			option->number, option->lo.description);
		log_warn("%ls%04X: the image was refused by Secure Boot\n", option->kind,
			 option->number);
		return status;
	}
	if (EFI_ERROR(status)) {
		log_info("%ls%04X: no image to load (%r)\n", option->kind, option->number, status);
		return status;
	}
	pass_optional_data(image, &option->lo);
	variable_set_firmware(u"BootCurrent", &efi_global_variable_guid,
			      EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS,
			      sizeof(current), &current);
	event_signal_group(&efi_event_group_ready_to_boot_guid);
	event_signal_group(&efi_event_group_after_ready_to_boot_guid);
	status = bds_start_image(image, option->lo.description);
	measure_boot_returned();
	return status;
}
