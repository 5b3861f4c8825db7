/* blk-test exit: ExitBootServices, after which the firmware's disk controllers must have
 * stopped their DMA; the program then waits for the test to look at the devices. */
#include "blk_test.h"

static EFI_STATUS exit_boot_services(void)
{
	UINTN size = 0, key, desc_size;
	UINT32 desc_version;
	EFI_MEMORY_DESCRIPTOR *map = NULL;
	EFI_STATUS status;

	for (UINT32 tries = 0; tries < 4; tries++) {
		status = app_bs->GetMemoryMap(&size, map, &key, &desc_size, &desc_version);
		if (status == EFI_BUFFER_TOO_SMALL) {
			app_free(map);
			size += 4 * sizeof(*map);
			map = app_alloc(size);
			if (!map)
				return EFI_OUT_OF_RESOURCES;
			continue;
		}
		if (EFI_ERROR(status))
			return status;
		status = app_bs->ExitBootServices(app_image, key);
		if (!EFI_ERROR(status))
			return status;
	}
	return status;
}

void blk_exit(void)
{
	EFI_STATUS status;

	app_print("blk-test: exiting boot services\n");
	status = exit_boot_services();
	if (EFI_ERROR(status)) {
		app_print("blk-test: ExitBootServices failed: %r\n", status);
		return;
	}
	app_forget_boot_services();
	for (;;)
		__asm__ volatile("cli; hlt");
}
