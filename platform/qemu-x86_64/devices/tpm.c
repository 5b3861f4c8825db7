/* QEMU's TPM 2.0 (-device tpm-crb or tpm-tis with -tpmdev emulator, swtpm): fw_cfg's
 * "etc/tpm/config" says a TPM is there and which TPM version it is (its address field is the
 * physical presence interface's page, 0xFED45000, not the registers'); the registers are at
 * the PTP's fixed address for x86, 0xFED40000, where the interface identifier says whether
 * CRB or FIFO answers (QEMU's TPM2 ACPI table says the same through its start method). The TPM
 * is started here; the OS finds it through QEMU's own ACPI tables (TPM2, the MSFT0101
 * device). */
#define LOG_PREFIX "tpm: "
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/drivers/tpm.h>
#include "cpu/io.h"
#include "tables/fw_cfg.h"

/* QEMU's QemuTpmConfig, little-endian and packed. */
struct qemu_tpm_config {
	uint32_t ppi_address;
	uint8_t version; /* 1 TPM 1.2, 2 TPM 2.0 */
	uint8_t ppi_version;
} __attribute__((packed));

#define QEMU_TPM_VERSION_2 2
#define PTP_LOCALITY0_BASE 0xFED40000u

static uint64_t tpm_base;
static struct tpm_device qemu_tpm;

static UINT8 mmio8_read(const struct tpm_regs *regs, UINT32 offset)
{
	return *(volatile uint8_t *)(uintptr_t)(tpm_base + offset);
}

static UINT32 mmio32_read(const struct tpm_regs *regs, UINT32 offset)
{
	return mmio_read32(tpm_base + offset);
}

static void mmio8_write(const struct tpm_regs *regs, UINT32 offset, UINT8 value)
{
	*(volatile uint8_t *)(uintptr_t)(tpm_base + offset) = value;
}

static void mmio32_write(const struct tpm_regs *regs, UINT32 offset, UINT32 value)
{
	mmio_write32(tpm_base + offset, value);
}

static const struct tpm_regs qemu_tpm_regs = {mmio8_read, mmio32_read, mmio8_write, mmio32_write,
					      NULL};

static bool tpm_find(void)
{
	struct qemu_tpm_config config;
	uint16_t select;
	uint32_t size;

	if (!fw_cfg_find("etc/tpm/config", &select, &size))
		return false;
	if (size < sizeof(config)) {
		log_debug("etc/tpm/config of %u bytes\n", size);
		return false;
	}
	fw_cfg_read(select, &config, sizeof(config));
	if (config.version != QEMU_TPM_VERSION_2) {
		log_warn("TPM version %u: only TPM 2.0 is supported\n", config.version);
		return false;
	}
	tpm_base = PTP_LOCALITY0_BASE;
	return true;
}

/* A TPM that fails is reported and left alone: the boot goes on without measurements. */
static EFI_STATUS qemu_tpm_start(void)
{
	UINT32 type;

	if (!tpm_find())
		return EFI_SUCCESS;
	type = mmio32_read(&qemu_tpm_regs, TPM_INTF_ID) & TPM_INTF_TYPE_MASK;
	if (type == TPM_INTF_TYPE_CRB) {
		tpm_crb_init(&qemu_tpm, &qemu_tpm_regs);
	} else if (type == TPM_INTF_TYPE_FIFO || type == TPM_INTF_TYPE_TIS) {
		tpm_tis_init(&qemu_tpm, &qemu_tpm_regs);
	} else {
		log_warn("TPM at 0x%llx: unknown interface type %u\n", (unsigned long long)tpm_base,
			 type);
		return EFI_SUCCESS;
	}
	if (!EFI_ERROR(tpm_start(&qemu_tpm)))
		log_debug("TPM 2.0 (%s) at 0x%llx\n", qemu_tpm.name, (unsigned long long)tpm_base);
	return EFI_SUCCESS;
}
EMBER_INIT(INIT_NORMAL, qemu_tpm_start);
