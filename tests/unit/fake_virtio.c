/* A virtio-pci device in memory (see fake_virtio.h): PCI identification and capabilities,
 * the registers of the modern and legacy interfaces, status and feature negotiation. The
 * queues are served in fake_virtio_serve.c. */
#include <stdlib.h>
#include <string.h>

#include "fake_virtio.h"
#include "block_dev.h"
#include "../../drivers/virtio/virtio_spec.h"
#include <efi/pci.h>
#include <efi/protocol/component_name2.h>
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define PCI_STATUS_CAP_LIST 0x10
#define PCI_CAP_ID_MSIX 0x11
#define MODERN_MEM_BASE 0xfe000000u
#define BAR_MEM_64 0x4
#define BAR_PREFETCH 0x8

static bool is_pow2(UINT32 v)
{
	return v && !(v & (v - 1));
}

/* ---- Status and features (2.1, 2.2, 3.1) ---- */

static void reset(struct fake_virtio *d)
{
	fake_virtio_settle(d);
	d->stats.resets++;
	d->status_before_reset = d->status;
	d->reset_reads_left = d->status ? d->faults.reset_delay : 0;
	d->status = 0;
	d->lost = false;
	d->accepted = 0;
	d->dfselect = d->gfselect = 0;
	d->queue_select = 0;
	d->msix_config = VIRTIO_MSI_NO_VECTOR;
	for (UINTN i = 0; i < FAKE_VIRTIO_QUEUES; i++) {
		struct fake_virtio_queue *q = &d->queues[i];
		*q = (struct fake_virtio_queue){.max = q->max,
						.size = q->max,
						.notify_off = q->notify_off,
						.msix = VIRTIO_MSI_NO_VECTOR};
	}
}

static UINT8 status_read(struct fake_virtio *d)
{
	if (d->faults.reset_stuck && d->stats.resets)
		return d->status_before_reset | VIRTIO_STATUS_ACKNOWLEDGE;
	if (d->reset_reads_left) {
		d->reset_reads_left--;
		return d->status_before_reset;
	}
	return d->status;
}

/* What FEATURES_OK (or, on the legacy interface, DRIVER_OK) accepts. */
static bool features_acceptable(struct fake_virtio *d, bool legacy)
{
	UINT64 offered = legacy ? (UINT32)d->offered : d->offered;

	if (d->accepted & ~offered) {
		fake_virtio_error(d, "driver accepted features not offered", d->accepted);
		return false;
	}
	return legacy || (d->accepted & VIRTIO_F_VERSION_1);
}

static void status_write(struct fake_virtio *d, UINT8 value, bool legacy)
{
	UINT8 added = (UINT8)(value & ~d->status);

	if (!value) {
		reset(d);
		return;
	}
	if (d->status & ~value)
		fake_virtio_error(d, "status bits cleared without a reset", value);
	if (added & VIRTIO_STATUS_FAILED)
		d->stats.failed++;
	if (!legacy && (added & VIRTIO_STATUS_FEATURES_OK) &&
	    (d->faults.refuse_features_ok || !features_acceptable(d, false)))
		value &= (UINT8)~VIRTIO_STATUS_FEATURES_OK;
	if (added & VIRTIO_STATUS_DRIVER_OK) {
		if (!legacy && !(value & VIRTIO_STATUS_FEATURES_OK))
			fake_virtio_error(d, "DRIVER_OK without FEATURES_OK", value);
		if (legacy)
			features_acceptable(d, true);
	}
	d->status = value;
}

/* ---- Queue set-up ---- */

static struct fake_virtio_queue *selected(struct fake_virtio *d)
{
	return d->queue_select < d->num_queues ? &d->queues[d->queue_select] : NULL;
}

static void queue_enable(struct fake_virtio *d, struct fake_virtio_queue *q)
{
	if (!is_pow2(q->size) || q->size > q->max) {
		fake_virtio_error(d, "queue enabled with a bad size", q->size);
		return;
	}
	if ((q->desc & 15) || (q->avail & 1) || (q->used & 3)) {
		fake_virtio_error(d, "queue parts misaligned", q->desc);
		return;
	}
	if (!fake_virtio_ring_mapped(d, q))
		return;
	q->enabled = !d->faults.ignore_enable;
	q->last_avail = 0;
}

/* Writes to the queue registers of the selected queue, which must not be live. */
static void queue_write(struct fake_virtio *d, UINT32 offset, UINT64 value)
{
	struct fake_virtio_queue *q = selected(d);
	UINT64 *half = NULL;

	if (!q)
		return; /* a queue that does not exist ignores writes */
	if (q->enabled) {
		fake_virtio_error(d, "queue register written while enabled", offset);
		return;
	}
	switch (offset) {
	case VIRTIO_COMMON_Q_SIZE:
		q->size = (UINT16)value;
		return;
	case VIRTIO_COMMON_Q_MSIX:
		q->msix = (UINT16)value;
		return;
	case VIRTIO_COMMON_Q_ENABLE:
		if (value != 1)
			fake_virtio_error(d, "queue_enable written with other than 1", value);
		else
			queue_enable(d, q);
		return;
	}
	half = offset < VIRTIO_COMMON_Q_AVAILLO	 ? &q->desc
	       : offset < VIRTIO_COMMON_Q_USEDLO ? &q->avail
						 : &q->used;
	if (offset & 4)
		*half = (*half & 0xffffffffULL) | value << 32;
	else
		*half = (*half & ~0xffffffffULL) | (UINT32)value;
}

/* ---- The modern interface's common configuration (4.1.4.3) ---- */

/* The width of the field at offset; 0 where there is none. */
static UINT32 common_width(UINT32 offset)
{
	switch (offset) {
	case VIRTIO_COMMON_STATUS:
	case VIRTIO_COMMON_CFGGENERATION:
		return 1;
	case VIRTIO_COMMON_MSIX:
	case VIRTIO_COMMON_NUMQ:
	case VIRTIO_COMMON_Q_SELECT:
	case VIRTIO_COMMON_Q_SIZE:
	case VIRTIO_COMMON_Q_MSIX:
	case VIRTIO_COMMON_Q_ENABLE:
	case VIRTIO_COMMON_Q_NOFF:
		return 2;
	default:
		return offset <= VIRTIO_COMMON_Q_USEDHI && !(offset & 3) ? 4 : 0;
	}
}

static UINT64 features_half(UINT64 features, UINT32 select)
{
	return select == 0 ? (UINT32)features : select == 1 ? features >> 32 : 0;
}

static UINT64 queue_read(struct fake_virtio *d, UINT32 offset)
{
	struct fake_virtio_queue *q = selected(d);
	UINT64 value;

	if (!q)
		return offset == VIRTIO_COMMON_Q_MSIX ? VIRTIO_MSI_NO_VECTOR : 0;
	switch (offset) {
	case VIRTIO_COMMON_Q_SIZE:
		return q->max ? q->size : 0;
	case VIRTIO_COMMON_Q_MSIX:
		return q->msix;
	case VIRTIO_COMMON_Q_ENABLE:
		return q->enabled;
	case VIRTIO_COMMON_Q_NOFF:
		return q->notify_off;
	}
	value = offset < VIRTIO_COMMON_Q_AVAILLO  ? q->desc
		: offset < VIRTIO_COMMON_Q_USEDLO ? q->avail
						  : q->used;
	return offset & 4 ? value >> 32 : (UINT32)value;
}

static UINT64 common_read(struct fake_virtio *d, UINT32 offset)
{
	switch (offset) {
	case VIRTIO_COMMON_DFSELECT:
		return d->dfselect;
	case VIRTIO_COMMON_DF:
		return features_half(d->offered, d->dfselect);
	case VIRTIO_COMMON_GFSELECT:
		return d->gfselect;
	case VIRTIO_COMMON_GF:
		return features_half(d->accepted, d->gfselect);
	case VIRTIO_COMMON_MSIX:
		return d->msix_config;
	case VIRTIO_COMMON_NUMQ:
		return d->num_queues;
	case VIRTIO_COMMON_STATUS:
		return status_read(d);
	case VIRTIO_COMMON_CFGGENERATION:
		return d->generation;
	case VIRTIO_COMMON_Q_SELECT:
		return d->queue_select;
	default:
		return queue_read(d, offset);
	}
}

static void set_features_half(struct fake_virtio *d, UINT64 value)
{
	UINT32 shift = 32 * d->gfselect;

	if (d->status & VIRTIO_STATUS_FEATURES_OK) {
		fake_virtio_error(d, "features written after FEATURES_OK", value);
		return;
	}
	if (d->gfselect < 2)
		d->accepted = (d->accepted & ~(0xffffffffULL << shift)) | value << shift;
}

static void common_write(struct fake_virtio *d, UINT32 offset, UINT64 value)
{
	switch (offset) {
	case VIRTIO_COMMON_DFSELECT:
		d->dfselect = (UINT32)value;
		return;
	case VIRTIO_COMMON_GFSELECT:
		d->gfselect = (UINT32)value;
		return;
	case VIRTIO_COMMON_GF:
		set_features_half(d, value);
		return;
	case VIRTIO_COMMON_MSIX:
		d->msix_config = (UINT16)value;
		return;
	case VIRTIO_COMMON_STATUS:
		status_write(d, (UINT8)value, false);
		return;
	case VIRTIO_COMMON_Q_SELECT:
		d->queue_select = (UINT16)value;
		return;
	case VIRTIO_COMMON_DF:
	case VIRTIO_COMMON_NUMQ:
	case VIRTIO_COMMON_CFGGENERATION:
	case VIRTIO_COMMON_Q_NOFF:
		fake_virtio_error(d, "write to a read-only common register", offset);
		return;
	default:
		queue_write(d, offset, value);
	}
}

/* ---- Device configuration, shared by both interfaces ---- */

static UINT64 config_read(struct fake_virtio *d, UINT32 offset, UINT32 size)
{
	UINT64 value = 0;

	if (offset < sizeof(d->config))
		memcpy(&value, d->config + offset, MIN(size, (UINT32)sizeof(d->config) - offset));
	/* A configuration change between the driver's two generation reads (4.1.4.3.1). */
	if (d->faults.generation_flips) {
		d->faults.generation_flips--;
		d->generation++;
	}
	return value;
}

/* ---- The modern BAR ---- */

static UINT64 modern_read(void *context, UINT64 offset, UINT32 size)
{
	struct fake_virtio *d = context;
	UINT8 isr;

	if (offset < FAKE_VIRTIO_ISR_AT) {
		if (common_width((UINT32)offset) != size) {
			fake_virtio_error(d, "common register read with a wrong width", offset);
			return 0;
		}
		return common_read(d, (UINT32)offset);
	}
	if (offset < FAKE_VIRTIO_DEVICE_AT) {
		isr = d->isr; /* reading clears it (4.1.4.5) */
		d->isr = 0;
		return isr;
	}
	if (offset < FAKE_VIRTIO_NOTIFY_AT) {
		if (size > 4)
			fake_virtio_error(d, "device configuration read wider than 32 bits",
					  offset);
		return config_read(d, (UINT32)(offset - FAKE_VIRTIO_DEVICE_AT), size);
	}
	fake_virtio_error(d, "read of the notification area", offset);
	return 0;
}

static void modern_notify(struct fake_virtio *d, UINT32 offset, UINT32 size, UINT64 value)
{
	UINT16 index = (UINT16)value;

	if (size != 2 || index >= d->num_queues ||
	    offset != (UINT64)d->queues[index].notify_off * d->notify_multiplier) {
		fake_virtio_error(d, "notification at the wrong place or width", offset);
		return;
	}
	fake_virtio_notify(d, index);
}

static void modern_write(void *context, UINT64 offset, UINT32 size, UINT64 value)
{
	struct fake_virtio *d = context;

	if (offset < FAKE_VIRTIO_ISR_AT) {
		if (common_width((UINT32)offset) != size)
			fake_virtio_error(d, "common register written with a wrong width", offset);
		else
			common_write(d, (UINT32)offset, value);
	} else if (offset >= FAKE_VIRTIO_NOTIFY_AT) {
		modern_notify(d, (UINT32)(offset - FAKE_VIRTIO_NOTIFY_AT), size, value);
	} else {
		fake_virtio_error(d, "write to the ISR or device configuration", offset);
	}
}

/* ---- The legacy interface (4.1.4.8) ---- */

static UINT32 legacy_width(UINT32 offset)
{
	switch (offset) {
	case VIRTIO_LEGACY_HOST_FEATURES:
	case VIRTIO_LEGACY_GUEST_FEATURES:
	case VIRTIO_LEGACY_QUEUE_PFN:
		return 4;
	case VIRTIO_LEGACY_QUEUE_SIZE:
	case VIRTIO_LEGACY_QUEUE_SELECT:
	case VIRTIO_LEGACY_QUEUE_NOTIFY:
		return 2;
	default:
		return 1;
	}
}

static UINT64 legacy_read(void *context, UINT64 offset, UINT32 size)
{
	struct fake_virtio *d = context;
	struct fake_virtio_queue *q = selected(d);
	UINT8 isr;

	if (offset >= VIRTIO_LEGACY_CONFIG)
		return config_read(d, (UINT32)(offset - VIRTIO_LEGACY_CONFIG), size);
	if (legacy_width((UINT32)offset) != size) {
		fake_virtio_error(d, "legacy register read with a wrong width", offset);
		return 0;
	}
	switch (offset) {
	case VIRTIO_LEGACY_HOST_FEATURES:
		return (UINT32)d->offered;
	case VIRTIO_LEGACY_GUEST_FEATURES:
		return (UINT32)d->accepted;
	case VIRTIO_LEGACY_QUEUE_PFN:
		return q && q->enabled ? q->desc >> VIRTIO_LEGACY_PFN_SHIFT : 0;
	case VIRTIO_LEGACY_QUEUE_SIZE:
		return q ? q->max : 0;
	case VIRTIO_LEGACY_QUEUE_SELECT:
		return d->queue_select;
	case VIRTIO_LEGACY_STATUS:
		return status_read(d);
	case VIRTIO_LEGACY_ISR:
		isr = d->isr;
		d->isr = 0;
		return isr;
	default:
		return 0;
	}
}

/* A page frame number places the whole ring in the fixed legacy layout; 0 releases it. */
static void legacy_set_pfn(struct fake_virtio *d, UINT32 pfn)
{
	struct fake_virtio_queue *q = selected(d);

	if (!q)
		return;
	q->enabled = false;
	if (!pfn)
		return;
	q->size = q->max;
	q->desc = (UINT64)pfn << VIRTIO_LEGACY_PFN_SHIFT;
	q->avail = q->desc + 16ULL * q->size;
	q->used = ALIGN_UP(q->avail + 6 + 2ULL * q->size, (UINT64)VIRTIO_LEGACY_QUEUE_ALIGN);
	queue_enable(d, q);
}

static void legacy_write(void *context, UINT64 offset, UINT32 size, UINT64 value)
{
	struct fake_virtio *d = context;

	if (offset >= VIRTIO_LEGACY_CONFIG || legacy_width((UINT32)offset) != size) {
		fake_virtio_error(d, "legacy write to configuration or with a wrong width", offset);
		return;
	}
	switch (offset) {
	case VIRTIO_LEGACY_GUEST_FEATURES:
		d->accepted = (UINT32)value;
		break;
	case VIRTIO_LEGACY_QUEUE_PFN:
		legacy_set_pfn(d, (UINT32)value);
		break;
	case VIRTIO_LEGACY_QUEUE_SELECT:
		d->queue_select = (UINT16)value;
		break;
	case VIRTIO_LEGACY_QUEUE_NOTIFY:
		if (value < d->num_queues)
			fake_virtio_notify(d, (UINT16)value);
		else
			fake_virtio_error(d, "notification of a queue that does not exist", value);
		break;
	case VIRTIO_LEGACY_STATUS:
		status_write(d, (UINT8)value, true);
		break;
	default:
		fake_virtio_error(d, "write to a read-only legacy register", offset);
	}
}

/* ---- PCI identification and capabilities (4.1.2, 4.1.4) ---- */

void fake_virtio_set_cap(struct fake_virtio *d, UINT8 at, UINT8 next, UINT8 cfg_type, UINT8 bar,
			 UINT32 offset, UINT32 length)
{
	struct fake_pci_io *p = d->pci;
	bool notify = cfg_type == VIRTIO_PCI_CAP_NOTIFY_CFG || cfg_type == VIRTIO_PCI_CAP_PCI_CFG;

	fake_pci_io_config_set(p, at, 1, PCI_CAP_ID_VNDR);
	fake_pci_io_config_set(p, at + 1, 1, next);
	fake_pci_io_config_set(p, at + 2, 1, notify ? 20 : 16);
	fake_pci_io_config_set(p, at + 3, 1, cfg_type);
	fake_pci_io_config_set(p, at + 4, 1, bar);
	fake_pci_io_config_set(p, at + 8, 4, offset);
	fake_pci_io_config_set(p, at + 12, 4, length);
	if (cfg_type == VIRTIO_PCI_CAP_NOTIFY_CFG)
		fake_pci_io_config_set(p, at + VIRTIO_PCI_NOTIFY_MULTIPLIER_AT, 4,
				       d->notify_multiplier);
}

static void add_capabilities(struct fake_virtio *d)
{
	struct fake_pci_io *p = d->pci;
	UINT8 bar = FAKE_VIRTIO_MODERN_BAR;

	fake_pci_io_config_set(p, PCI_STATUS_OFFSET, 2, PCI_STATUS_CAP_LIST);
	fake_pci_io_config_set(p, PCI_CAPABILITY_POINTER_OFFSET, 1, FAKE_VIRTIO_CAP_MSIX);
	fake_pci_io_config_set(p, FAKE_VIRTIO_CAP_MSIX, 1, PCI_CAP_ID_MSIX);
	fake_pci_io_config_set(p, FAKE_VIRTIO_CAP_MSIX + 1, 1, FAKE_VIRTIO_CAP_COMMON);
	fake_virtio_set_cap(d, FAKE_VIRTIO_CAP_COMMON, FAKE_VIRTIO_CAP_NOTIFY,
			    VIRTIO_PCI_CAP_COMMON_CFG, bar, FAKE_VIRTIO_COMMON_AT, 0x38);
	fake_virtio_set_cap(d, FAKE_VIRTIO_CAP_NOTIFY, FAKE_VIRTIO_CAP_ISR,
			    VIRTIO_PCI_CAP_NOTIFY_CFG, bar, FAKE_VIRTIO_NOTIFY_AT, 0x1000);
	fake_virtio_set_cap(d, FAKE_VIRTIO_CAP_ISR, FAKE_VIRTIO_CAP_DEVICE, VIRTIO_PCI_CAP_ISR_CFG,
			    bar, FAKE_VIRTIO_ISR_AT, 1);
	fake_virtio_set_cap(d, FAKE_VIRTIO_CAP_DEVICE, FAKE_VIRTIO_CAP_PCI,
			    VIRTIO_PCI_CAP_DEVICE_CFG, bar, FAKE_VIRTIO_DEVICE_AT, d->config_len);
	fake_virtio_set_cap(d, FAKE_VIRTIO_CAP_PCI, 0, VIRTIO_PCI_CAP_PCI_CFG, 0, 0, 0);
	fake_pci_io_set_bar(p, bar,
			    &(struct fake_pci_bar){FAKE_VIRTIO_MODERN_BAR_SIZE, false, modern_read,
						   modern_write, d});
	/* A 64-bit prefetchable BAR, as QEMU gives it. */
	fake_pci_io_config_set(p, PCI_BASE_ADDRESS_REG(bar), 4,
			       MODERN_MEM_BASE | BAR_MEM_64 | BAR_PREFETCH);
}

static void add_legacy_bar(struct fake_virtio *d)
{
	fake_pci_io_set_bar(d->pci, 0,
			    &(struct fake_pci_bar){FAKE_VIRTIO_LEGACY_BAR_SIZE, true, legacy_read,
						   legacy_write, d});
}

/* The transitional device ID of a type (4.1.2.1). */
static UINT16 transitional_id(UINT16 type)
{
	if (type == FAKE_VIRTIO_ID_SCSI)
		return 0x1004;
	return type == VIRTIO_ID_BLOCK ? 0x1001 : type == FAKE_VIRTIO_ID_ENTROPY ? 0x1005 : 0x1000;
}

/* The PCI function of a device: its IDs (4.1.2), and a slot of its own, since a device
 * path may stand on one handle only. Drivers reach it through Attributes, never by
 * writing configuration space. */
static struct fake_pci_io *function(enum fake_virtio_interface interface, UINT16 type)
{
	static UINT8 next_slot = 8;
	bool modern = interface == FAKE_VIRTIO_MODERN;
	const struct fake_pci_io_config config = {
	    .vendor = VIRTIO_PCI_VENDOR,
	    .device = modern ? VIRTIO_PCI_MODERN_BASE + type : transitional_id(type),
	    .class_code = type == VIRTIO_ID_BLOCK ? 0x010000 : 0xff0000,
	    .dev = next_slot,
	    .supports = EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY |
			EFI_PCI_IO_ATTRIBUTE_BUS_MASTER | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE,
	    .attributes = EFI_PCI_IO_ATTRIBUTE_IO,
	    .config_read_only = true,
	};

	next_slot = next_slot == 31 ? 8 : next_slot + 1;
	return fake_pci_io_create(&config);
}

static void identify(struct fake_virtio *d)
{
	bool modern = d->interface == FAKE_VIRTIO_MODERN;

	fake_pci_io_config_set(d->pci, PCI_REVISION_ID_OFFSET, 1, modern ? 1 : 0);
	fake_pci_io_config_set(d->pci, PCI_SUBSYSTEM_VENDOR_ID_OFFSET, 2, VIRTIO_PCI_VENDOR);
	fake_pci_io_config_set(d->pci, PCI_SUBSYSTEM_ID_OFFSET, 2, modern ? 0x1100 : d->type);
	if (d->interface != FAKE_VIRTIO_LEGACY)
		add_capabilities(d);
	if (d->interface != FAKE_VIRTIO_MODERN)
		add_legacy_bar(d);
}

/* ---- Life cycle ---- */

struct fake_virtio *fake_virtio_create(enum fake_virtio_interface interface, UINT16 type)
{
	struct fake_virtio *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	test_install_builtin_drivers();
	d->pci = function(interface, type);
	if (!d->pci) {
		free(d);
		return NULL;
	}
	d->interface = interface;
	d->type = type;
	d->offered = VIRTIO_F_VERSION_1;
	d->num_queues = 1;
	d->queues[0].max = 256;
	for (UINT16 i = 0; i < FAKE_VIRTIO_QUEUES; i++)
		d->queues[i].notify_off = i;
	d->notify_multiplier = 4;
	d->config_len = sizeof(d->config);
	reset(d);
	d->stats.resets = 0;
	identify(d);
	return d;
}

void fake_virtio_error(struct fake_virtio *d, const char *what, UINT64 value)
{
	fake_pci_io_error(d->pci, "%s (%#llx)", what, (unsigned long long)value);
}

UINT8 fake_virtio_disk_byte(UINT64 n)
{
	return (UINT8)(n * 13 + n / 512 + 1);
}

UINT8 fake_virtio_rng_byte(UINT64 n)
{
	return (UINT8)(n * 131 + (n >> 8) + 7);
}

struct fake_virtio *fake_virtio_blk_create(enum fake_virtio_interface interface, UINT64 sectors)
{
	struct fake_virtio *d = fake_virtio_create(interface, VIRTIO_ID_BLOCK);

	if (!d)
		return NULL;
	d->offered = VIRTIO_F_VERSION_1 | VIRTIO_BLK_F_SIZE_MAX | VIRTIO_BLK_F_SEG_MAX |
		     VIRTIO_BLK_F_BLK_SIZE | VIRTIO_BLK_F_FLUSH | VIRTIO_BLK_F_TOPOLOGY |
		     VIRTIO_BLK_F_CONFIG_WCE | (1ULL << 28) /* INDIRECT_DESC */ |
		     (1ULL << 29) /* EVENT_IDX */;
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_CAPACITY, 8, sectors);
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_SIZE_MAX, 4, 0x10000);
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_SEG_MAX, 4, 126);
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_BLK_SIZE, 4, 512);
	fake_virtio_set_config(d, VIRTIO_BLK_CFG_WRITEBACK, 1, 1);
	d->disk_bytes = sectors * 512;
	d->disk = malloc(d->disk_bytes ? d->disk_bytes : 1);
	for (UINT64 i = 0; i < d->disk_bytes; i++)
		d->disk[i] = fake_virtio_disk_byte(i);
	strcpy(d->serial, "EMBER-FAKE-0001");
	return d;
}

struct fake_virtio *fake_virtio_rng_create(enum fake_virtio_interface interface)
{
	struct fake_virtio *d = fake_virtio_create(interface, FAKE_VIRTIO_ID_ENTROPY);

	if (!d)
		return NULL;
	d->queues[0].max = d->queues[0].size = 64;
	return d;
}

void fake_virtio_destroy(struct fake_virtio *d)
{
	if (!d)
		return;
	fake_virtio_settle(d);
	fake_pci_io_destroy(d->pci);
	free(d->disk);
	free(d);
}

void fake_virtio_set_config(struct fake_virtio *d, UINT32 offset, UINT32 size, UINT64 value)
{
	if (offset + size <= sizeof(d->config))
		memcpy(d->config + offset, &value, size);
}

void fake_virtio_set_ids(struct fake_virtio *d, UINT16 vendor, UINT16 device, UINT16 subsystem)
{
	fake_pci_io_config_set(d->pci, PCI_VENDOR_ID_OFFSET, 2, vendor);
	fake_pci_io_config_set(d->pci, PCI_DEVICE_ID_OFFSET, 2, device);
	fake_pci_io_config_set(d->pci, PCI_SUBSYSTEM_ID_OFFSET, 2, subsystem);
}

void fake_virtio_clear_faults(struct fake_virtio *d)
{
	d->faults = (struct fake_virtio_faults){0};
	d->pci->faults = (struct fake_pci_io_faults){0};
	if (d->interface != FAKE_VIRTIO_LEGACY)
		fake_pci_io_config_set(d->pci, PCI_STATUS_OFFSET, 2, PCI_STATUS_CAP_LIST);
}

void fake_virtio_lose_state(struct fake_virtio *d)
{
	reset(d);
	d->stats.resets--;
	d->reset_reads_left = 0;
	d->lost = true;
}

EFI_DRIVER_BINDING_PROTOCOL *fake_virtio_driver(const CHAR16 *name)
{
	static const EFI_GUID binding_guid = EFI_DRIVER_BINDING_PROTOCOL_GUID;
	static const EFI_GUID names_guid = EFI_COMPONENT_NAME2_PROTOCOL_GUID;
	EFI_DRIVER_BINDING_PROTOCOL *found = NULL;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	test_install_builtin_drivers();
	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &binding_guid, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !found; i++) {
		EFI_COMPONENT_NAME2_PROTOCOL *names;
		CHAR16 *driver_name;
		if (!EFI_ERROR(protocol_get(handles[i], &names_guid, (void **)&names)) &&
		    !EFI_ERROR(names->GetDriverName(names, (CHAR8 *)"en", &driver_name)) &&
		    str16_cmp(driver_name, name) == 0)
			protocol_get(handles[i], &binding_guid, (void **)&found);
	}
	pool_free(handles);
	return found;
}
