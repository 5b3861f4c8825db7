/* Issuing one command on an AHCI port (AHCI 1.3.1, 5.5 and 5.6): command header and table
 * in slot 0, the PRDT over the data, then polling PxCI and PxIS until it is done. */
#include "ahci.h"
#include <ember/lib/util.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define POLL_US 5
#define FIS_DWORDS (ATA_FIS_BYTES / 4)

_Static_assert(AHCI_PRDT_PER_COMMAND <= AHCI_MAX_PRDT, "the PRDT fits before the scratch area");

void *ahci_scratch(struct ahci_port *port)
{
	return port->mem + AHCI_PORT_SCRATCH;
}

UINT64 ahci_scratch_addr(struct ahci_port *port)
{
	return port->mem_addr + AHCI_PORT_SCRATCH;
}

/* Fills the PRDT with entries of at most 4 MiB; returns how many, 0 if it does not fit. */
static UINT16 build_prdt(struct ahci_cmd_table *table, UINT64 data, UINT32 bytes)
{
	UINT16 n = 0;

	while (bytes) {
		UINT32 len = MIN(bytes, AHCI_PRD_MAX_BYTES);

		if (n == AHCI_PRDT_PER_COMMAND)
			return 0;
		table->prdt[n].dba = (UINT32)data;
		table->prdt[n].dbau = (UINT32)(data >> 32);
		table->prdt[n].reserved = 0;
		table->prdt[n].dbc = len - 1;
		data += len;
		bytes -= len;
		n++;
	}
	return n;
}

static EFI_STATUS build_command(struct ahci_port *port, const struct ahci_request *req)
{
	struct ahci_cmd_header *header = (void *)(port->mem + AHCI_PORT_CMD_LIST);
	struct ahci_cmd_table *table = (void *)(port->mem + AHCI_PORT_TABLE);
	UINT64 table_addr = port->mem_addr + AHCI_PORT_TABLE;
	UINT16 prdtl = 0;

	mem_set(table, 0, sizeof(*table));
	if (req->bytes && !(prdtl = build_prdt(table, req->data, req->bytes)))
		return EFI_INVALID_PARAMETER;
	ata_encode_fis(table->cfis, req->ata);
	if (req->cdb)
		mem_copy(table->acmd, req->cdb, ATAPI_CDB_BYTES);
	mem_set(header, 0, sizeof(*header));
	header->flags = (UINT16)(FIS_DWORDS | (req->cdb ? AHCI_CMD_ATAPI : 0) |
				 (req->write ? AHCI_CMD_WRITE : 0));
	header->prdtl = prdtl;
	header->ctba = (UINT32)table_addr;
	header->ctbau = (UINT32)(table_addr >> 32);
	return EFI_SUCCESS;
}

/* Polls until slot 0 completes or fails. */
static EFI_STATUS wait_done(struct ahci_port *port, UINT32 timeout_ms)
{
	UINT64 limit = (UINT64)timeout_ms * 1000;

	for (UINT64 waited = 0; waited < limit; waited += POLL_US) {
		UINT32 is = ahci_port_read(port, AHCI_PxIS);

		if (is & AHCI_PxIS_ERRORS)
			return EFI_DEVICE_ERROR;
		if (!(ahci_port_read(port, AHCI_PxCI) & 1))
			return EFI_SUCCESS;
		core_stall_us(POLL_US);
	}
	return EFI_TIMEOUT;
}

EFI_STATUS ahci_exec(struct ahci_port *port, struct ahci_request *req)
{
	EFI_STATUS status = build_command(port, req);
	UINT32 tfd;

	if (EFI_ERROR(status))
		return status;
	req->error = 0;
	/* PxCI means something only while PxCMD.ST is set (AHCI 1.3.1, 3.3.14): on a port that
	 * did not restart after an error, the command would seem done at once, with nothing
	 * transferred. */
	if (!(ahci_port_read(port, AHCI_PxCMD) & AHCI_PxCMD_ST))
		return EFI_DEVICE_ERROR;
	ahci_port_write(port, AHCI_PxIS, 0xffffffff);
	/* The command list and table must be in memory before the HBA fetches them. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	ahci_port_write(port, AHCI_PxCI, 1);
	status = wait_done(port, req->timeout_ms);
	tfd = ahci_port_read(port, AHCI_PxTFD);
	if (!EFI_ERROR(status) && (tfd & (AHCI_PxTFD_ERR | AHCI_PxTFD_DF)))
		status = EFI_DEVICE_ERROR;
	if (EFI_ERROR(status)) {
		req->error = (UINT8)(tfd >> 8);
		if (status == EFI_TIMEOUT)
			log_warn("ahci: port %u: command %#x timed out\n", port->index,
				 req->ata->command);
		ahci_port_recover(port);
	}
	return status;
}
