/* The table loader (qemu_loader.h) fed from QEMU's fw_cfg, as both QEMU platforms run it:
 * the script is the file etc/table-loader, each blob it allocates is the fw_cfg file of that
 * name, and its write-pointer commands go back to QEMU through fw_cfg DMA writes. What
 * differs between the platforms is a parameter: the memory the blobs take, and whether the
 * script and the blobs are measured (x86-64's PCR 1; AArch64 has no TPM). */
#ifndef EMBER_QEMU_LOADER_FW_CFG_H
#define EMBER_QEMU_LOADER_FW_CFG_H

#include <efi/boot_services.h>
#include "qemu_loader.h"

/* Where a platform puts the blobs, and what it does with QEMU's data. */
struct qemu_loader_fw_cfg {
	EFI_MEMORY_TYPE memory_type; /* of every blob, whatever zone the script asks */
	UINT64 max_address;	     /* the highest address a blob may reach; 0: any */
	/* Called with the script, then with each blob as QEMU gave it (before pointers and
	 * checksums are patched in); NULL: nothing is measured. */
	void (*measure)(const void *data, UINT32 size);
};

/* Fetches etc/table-loader and runs it; the blobs stay in loader. EFI_NOT_FOUND without a
 * script; a script too big or one that fails is logged as an error, and on any failure no
 * blob stays allocated. */
EFI_STATUS qemu_loader_fw_cfg_run(struct qemu_loader *loader,
				  const struct qemu_loader_fw_cfg *platform);

/* Frees the blobs of a run whose tables were not published. */
void qemu_loader_fw_cfg_free(struct qemu_loader *loader);

#endif
