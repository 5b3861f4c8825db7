/* The table loader's fw_cfg side (qemu_loader_fw_cfg.h): the callbacks that give the pure
 * interpreter its blobs and take its pointers back to QEMU. */
#define LOG_PREFIX "acpi: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "fw_cfg.h"
#include "qemu_loader_fw_cfg.h"

#define MAX_SCRIPT_SIZE 0x10000

static EFI_STATUS load_blob(void *ctx, const char *name, UINT32 align, UINT8 zone,
			    struct qemu_loader_blob *blob)
{
	const struct qemu_loader_fw_cfg *platform = ctx;
	EFI_PHYSICAL_ADDRESS address = platform->max_address;
	uint16_t select;
	uint32_t size;
	EFI_STATUS status;

	if (!fw_cfg_find(name, &select, &size) || !size) {
		log_debug("%s: no such fw_cfg file, or empty\n", name);
		return EFI_NOT_FOUND;
	}
	if (align > EFI_PAGE_SIZE) {
		log_debug("%s: alignment %u is more than a page\n", name, align);
		return EFI_UNSUPPORTED;
	}
	/* The zone (high memory or the F segment) is not honoured: every blob goes where the
	 * platform says, which is where both kinds are reachable. */
	status = mem_allocate_pages(address ? AllocateMaxAddress : AllocateAnyPages,
				    platform->memory_type, EFI_SIZE_TO_PAGES(size), &address);
	if (EFI_ERROR(status)) {
		log_debug("%s: allocating %u bytes: %r\n", name, size, status);
		return status;
	}
	blob->data = (UINT8 *)(uintptr_t)address;
	blob->address = address;
	blob->size = size;
	mem_set(blob->data, 0, EFI_PAGES_TO_SIZE(EFI_SIZE_TO_PAGES(size)));
	fw_cfg_read(select, blob->data, size);
	if (platform->measure)
		platform->measure(blob->data, size);
	return EFI_SUCCESS;
}

static EFI_STATUS write_pointer(void *ctx, const char *name, UINT32 offset, UINT8 size,
				UINT64 value)
{
	uint16_t select;
	uint32_t file_size;

	if (!fw_cfg_find(name, &select, &file_size) || offset > file_size ||
	    size > file_size - offset) {
		log_debug("%s: no such fw_cfg file, or %u bytes at %u lie outside it\n", name, size,
			  offset);
		return EFI_NOT_FOUND;
	}
	if (!fw_cfg_write_at(select, offset, &value, size)) {
		log_debug("%s: QEMU did not take the write\n", name);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

void qemu_loader_fw_cfg_free(struct qemu_loader *loader)
{
	for (UINTN i = 0; i < loader->blob_count; i++)
		mem_free_pages(loader->blobs[i].address, EFI_SIZE_TO_PAGES(loader->blobs[i].size));
	loader->blob_count = 0;
}

EFI_STATUS qemu_loader_fw_cfg_run(struct qemu_loader *loader,
				  const struct qemu_loader_fw_cfg *platform)
{
	const struct qemu_loader_ops ops = {load_blob, write_pointer, (void *)platform};
	uint16_t select;
	uint32_t size;
	void *script;
	EFI_STATUS status;

	if (!fw_cfg_find("etc/table-loader", &select, &size)) {
		log_debug("no etc/table-loader\n");
		return EFI_NOT_FOUND;
	}
	/* A script is there but cannot be run: an error, not an absence (the platform may
	 * fall back to something else, as AArch64 does to the device tree). */
	if (size > MAX_SCRIPT_SIZE) {
		log_error("etc/table-loader: %u bytes, more than %u\n", size, MAX_SCRIPT_SIZE);
		return EFI_LOAD_ERROR;
	}
	script = pool_alloc(size);
	if (!script) {
		log_debug("no memory for etc/table-loader\n");
		return EFI_OUT_OF_RESOURCES;
	}
	fw_cfg_read(select, script, size);
	if (platform->measure)
		platform->measure(script, size);
	status = qemu_loader_run(loader, &ops, script, size);
	pool_free(script);
	if (EFI_ERROR(status)) {
		log_error("etc/table-loader: %s (%r)\n", loader->error ? loader->error : "failed",
			  status);
		qemu_loader_fw_cfg_free(loader);
	}
	return status;
}
