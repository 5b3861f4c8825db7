/* StartImage, Exit and UnloadImage (UEFI 2.10, section 7.4). Exit unwinds, from any depth
 * inside the image, to the StartImage that started it. */
#include "image.h"
#include "../services.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
void __asan_handle_no_return(void);
#define HANDLE_NO_RETURN() __asan_handle_no_return()
#endif
#endif
#ifndef HANDLE_NO_RETURN
#define HANDLE_NO_RETURN() ((void)0)
#endif

JUMP_BUFFER_CHECK_LAYOUT();

static struct image *current_image;
static bool outside_application_started;

EFI_HANDLE image_current_handle(void)
{
	return current_image ? current_image->handle : NULL;
}

bool image_outside_application_started(void)
{
	return outside_application_started;
}

void image_free(struct image *img)
{
	image_debug_remove(img);
	protocol_close_all_by_agent(img->handle);
	if (img->hii_packages)
		protocol_uninstall(img->handle, &efi_hii_package_list_protocol_guid,
				   img->hii_packages);
	protocol_uninstall(img->handle, &efi_loaded_image_device_path_protocol_guid,
			   img->device_path);
	protocol_uninstall(img->handle, &efi_loaded_image_protocol_guid, &img->loaded);
	list_del(&img->link);
	if (img->pages)
		mem_free_pages(img->pages_base, img->pages);
	pool_free(img->loaded.FilePath);
	pool_free(img->device_path);
	pool_free(img->exit_data);
	img->signature = 0;
	pool_free(img);
}

UINTN image_starts;

EFI_STATUS image_start(EFI_HANDLE handle, UINTN *exit_data_size, CHAR16 **exit_data)
{
	struct image *img = image_lookup(handle), *previous = current_image;
	struct jump_buffer jb;
	EFI_STATUS status;

	if (!img || img->started)
		return EFI_INVALID_PARAMETER;
	if (img->deferred)
		return EFI_SECURITY_VIOLATION;
	image_starts++;
	img->started = true;
	if (img->outside && img->pe.subsystem == EFI_IMAGE_SUBSYSTEM_EFI_APPLICATION)
		outside_application_started = true;
	img->exit_jump = &jb;
	img->start_tpl = tpl_current();
	current_image = img;
	if (jump_set(&jb) == 0) {
		status = img->entry(handle, core_st);
		img->exit_status = status; /* returning from the entry point is Exit() */
	}
	/* After Exit() everything below was abandoned; the TPL goes back to where it was. */
	if (tpl_current() > img->start_tpl)
		tpl_restore(img->start_tpl);
	current_image = previous;
	img->exit_jump = NULL;
	status = img->exit_status;
	/* ExitDataSize is only an output when ExitData is asked for. */
	if (exit_data) {
		if (exit_data_size)
			*exit_data_size = img->exit_data_size;
		*exit_data = img->exit_data;
		img->exit_data = NULL;
	}
	log_debug("%s exited: %r\n", img->name, status);
	/* Applications and failed drivers leave; drivers that succeeded stay resident. */
	if (img->pe.subsystem == EFI_IMAGE_SUBSYSTEM_EFI_APPLICATION || EFI_ERROR(status))
		image_free(img);
	return status;
}

EFI_STATUS image_unload(EFI_HANDLE handle)
{
	struct image *img = image_lookup(handle);
	EFI_STATUS status;

	if (!img)
		return EFI_INVALID_PARAMETER;
	if (img->started) {
		if (!img->loaded.Unload)
			return EFI_UNSUPPORTED;
		status = img->loaded.Unload(handle);
		if (EFI_ERROR(status))
			return status;
	}
	image_free(img);
	return EFI_SUCCESS;
}

bool image_find_by_address(UINT64 address, struct image_location *where)
{
	struct image *img;

	list_for_each_entry (img, &image_list, link)
		if (img->pages && address >= img->pages_base &&
		    address < img->pages_base + img->pe.size_of_image) {
			where->name = img->name;
			where->base = img->pages_base;
			where->size = img->pe.size_of_image;
			return true;
		}
	return false;
}

/* ---- Ending a program that faulted ---- */

/* Room left below StartImage's frame: jump_set's caller may keep nothing below its stack
 * pointer but the System V red zone. */
#define ABORT_STACK_GAP 512

bool image_running(struct image_location *where)
{
	struct image *img = current_image;

	if (!img || img->aborting)
		return false;
	where->name = img->name;
	where->base = img->pages_base;
	where->size = img->pe.size_of_image;
	return true;
}

bool image_fault_abortable(UINT64 rip, EFI_TPL tpl, bool programs_fault)
{
	struct image_location where;

	/* After ExitBootServices the OS owns the machine: no boot services to return to. */
	if (!image_running(&where) || core_boot_services_exited)
		return false;
	if (image_find_by_address(rip, &where))
		return true;
	/* In Ember's code: at TPL_HIGH_LEVEL Ember is changing its event queues and timers,
	 * which nothing would put right. Below it the services read and write the caller's
	 * buffers, at TPL_NOTIFY too (GetVariable holds the variable store's lock while it
	 * fills Data), and a bad pointer faults before the store or the map changes. */
	return programs_fault && tpl < TPL_HIGH_LEVEL;
}

UINTN image_abort_stack(void)
{
	UINTN top = ALIGN_DOWN(jump_buffer_sp(current_image->exit_jump) - ABORT_STACK_GAP, 16) -
		    ARCH_RETURN_ADDRESS_SLOT;

	if (ARCH_RETURN_ADDRESS_SLOT)
		*(UINT64 *)top = 0; /* no return address: a frame walk ends here */
	return top;
}

_Noreturn void image_abort_running(void)
{
	struct image *img = current_image;

	img->aborting = true;
	img->exit_status = EFI_ABORTED;
	HANDLE_NO_RETURN();
	jump_long(img->exit_jump, 1);
}

/* ---- Boot services entry points ---- */

EFI_STATUS EFIAPI efi_start_image(EFI_HANDLE image, UINTN *exit_data_size, CHAR16 **exit_data)
{
	return image_start(image, exit_data_size, exit_data);
}

EFI_STATUS EFIAPI efi_exit(EFI_HANDLE handle, EFI_STATUS status, UINTN exit_data_size,
			   CHAR16 *exit_data)
{
	struct image *img = image_lookup(handle);

	if (!img)
		return EFI_INVALID_PARAMETER;
	if (!img->started) {
		image_free(img); /* Exit before StartImage unloads the image */
		return EFI_SUCCESS;
	}
	if (img != current_image)
		return EFI_INVALID_PARAMETER;
	img->exit_status = status;
	pool_free(img->exit_data);
	img->exit_data = NULL;
	img->exit_data_size = 0;
	if (exit_data && exit_data_size) {
		img->exit_data = pool_dup(exit_data, exit_data_size);
		if (img->exit_data)
			img->exit_data_size = exit_data_size;
	}
	HANDLE_NO_RETURN();
	jump_long(img->exit_jump, 1);
}

EFI_STATUS EFIAPI efi_unload_image(EFI_HANDLE image)
{
	return image_unload(image);
}
