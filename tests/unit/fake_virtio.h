/* A virtio-pci device in memory for the tests of Ember's virtio drivers, on a fake PCI
 * function (fake_pci_io.h) installed on a handle of its own:
 *  - the modern interface (virtio 1.x, 4.1.4): vendor capabilities pointing into memory
 *    BAR 4 (common configuration at 0, ISR at 0x1000, device configuration at 0x2000,
 *    notifications at 0x3000), each register checked for the width the spec gives it;
 *  - the legacy interface (4.1.4.8) in I/O BAR 0, alone (a legacy device) or beside the
 *    modern one (a transitional device);
 *  - the device side of initialization: reset, status bits, feature negotiation with the
 *    FEATURES_OK handshake, queue set-up, and split virtqueues (2.7) served when notified,
 *    every ring and buffer reached through the PCI function's DMA mappings only;
 *  - a virtio-blk backend (5.2) over a byte array and a virtio-rng backend (5.4) that fills
 *    buffers with a known sequence (fake_virtio_rng_byte);
 *  - faults to inject (fake_virtio_faults).
 * What the driver does against the spec is counted in pci->errors (pci->last_error says
 * the last one); a test ends with that count at zero. */
#ifndef EMBER_TEST_FAKE_VIRTIO_H
#define EMBER_TEST_FAKE_VIRTIO_H

#include <pthread.h>
#include <stdbool.h>
#include <efi/protocol/driver_binding.h>
#include "fake_pci_io.h"

enum fake_virtio_interface {
	FAKE_VIRTIO_MODERN,	  /* device ID 0x1040 + type, capabilities only */
	FAKE_VIRTIO_TRANSITIONAL, /* device ID 0x1000-0x103f: capabilities and I/O BAR 0 */
	FAKE_VIRTIO_LEGACY,	  /* a transitional ID with the legacy interface only */
};

#define FAKE_VIRTIO_QUEUES 6
#define FAKE_VIRTIO_CONFIG_BYTES 64
#define FAKE_VIRTIO_MODERN_BAR 4
#define FAKE_VIRTIO_COMMON_AT 0x0000
#define FAKE_VIRTIO_ISR_AT 0x1000
#define FAKE_VIRTIO_DEVICE_AT 0x2000
#define FAKE_VIRTIO_NOTIFY_AT 0x3000
#define FAKE_VIRTIO_MODERN_BAR_SIZE 0x4000
#define FAKE_VIRTIO_LEGACY_BAR_SIZE 0x80
/* Where the capability list lies in configuration space: an MSI-X capability first (not
 * virtio's), then common, notify, ISR, device and PCI-access capabilities. */
#define FAKE_VIRTIO_CAP_MSIX 0x40
#define FAKE_VIRTIO_CAP_COMMON 0x50
#define FAKE_VIRTIO_CAP_NOTIFY 0x60
#define FAKE_VIRTIO_CAP_ISR 0x74
#define FAKE_VIRTIO_CAP_DEVICE 0x84
#define FAKE_VIRTIO_CAP_PCI 0x94

#define FAKE_VIRTIO_ID_ENTROPY 4
#define FAKE_VIRTIO_ID_SCSI 8

/* One descriptor chain as the device takes it from a queue. */
struct fake_virtio_buf {
	UINT8 *p; /* NULL when the device may not reach it */
	UINT32 len;
	bool writes;
};

#define FAKE_VIRTIO_MAX_CHAIN 256
struct fake_virtio_chain {
	struct fake_virtio_buf bufs[FAKE_VIRTIO_MAX_CHAIN];
	UINT16 count;
	bool bad; /* a buffer outside the mappings, a loop, a misordered chain */
};

struct fake_virtio;
/* A backend of another device type (fake_virtio_scsi.c): serves a chain taken from queue
 * index and returns the bytes it wrote, or FAKE_VIRTIO_HOLD to leave the chain (and those
 * after it) available until the queue is served again. */
#define FAKE_VIRTIO_HOLD UINT32_MAX
typedef UINT32 (*fake_virtio_serve_fn)(struct fake_virtio *d, UINT16 index,
				       struct fake_virtio_chain *c);

struct fake_virtio_queue {
	UINT16 max; /* the largest size; 0: the queue is unusable */
	UINT16 size;
	bool enabled;
	UINT16 notify_off;
	UINT16 msix;
	UINT64 desc, avail, used; /* device addresses */
	UINT16 last_avail;	  /* the next available entry the device takes */
};

struct fake_virtio_faults {
	bool refuse_features_ok;
	UINTN reset_delay;	/* status reads after a reset that still show the old status */
	bool reset_stuck;	/* a reset never completes */
	bool ignore_enable;	/* queue_enable stays 0 */
	bool corrupt_used;	/* used elements name a head that is not in flight */
	UINT32 late_us;		/* requests complete this long after the notification */
	UINTN generation_flips; /* device-configuration reads that see config_generation move */
	UINT32 blk_fail_types;	/* bit n: virtio-blk requests of type n fail ... */
	UINT8 blk_fail_status;	/* ... with this status */
	UINT32 rng_limit;	/* the most bytes one entropy request gets (0: all asked) */
	bool rng_empty;		/* entropy requests come back with nothing */
};

struct fake_virtio_stats {
	UINTN resets, notifies, requests, reads, writes, flushes, get_ids;
	UINTN max_segments;	  /* data descriptors in one virtio-blk request, at most */
	UINT32 max_segment_bytes; /* bytes in one data descriptor, at most */
	UINT64 rng_bytes;	  /* entropy handed out so far */
	UINTN failed;		  /* times the driver set FAILED */
};

struct fake_virtio_gpu;

struct fake_virtio {
	struct fake_pci_io *pci; /* its function: IO decoding on, configuration read-only */
	enum fake_virtio_interface interface;
	UINT16 type;
	UINT64 offered;	 /* device features */
	UINT64 accepted; /* driver features */
	UINT32 dfselect, gfselect;
	UINT8 status, status_before_reset, generation, isr;
	UINTN reset_reads_left;
	bool lost; /* the device lost its state under the driver (fake_virtio_lose_state) */
	UINT16 msix_config, queue_select, num_queues;
	struct fake_virtio_queue queues[FAKE_VIRTIO_QUEUES];
	UINT8 config[FAKE_VIRTIO_CONFIG_BYTES];
	UINT32 config_len; /* bytes the device-configuration capability covers */
	UINT32 notify_multiplier;
	struct fake_virtio_faults faults;
	struct fake_virtio_stats stats;
	UINT8 *disk; /* virtio-blk's medium */
	UINT64 disk_bytes;
	char serial[21];
	pthread_t late_thread; /* serving a late completion */
	bool late_running;
	UINT16 late_index;	     /* the queue it serves */
	fake_virtio_serve_fn serve;  /* a backend other than virtio-blk and virtio-rng */
	void *backend;		     /* its state */
	struct fake_virtio_gpu *gpu; /* a virtio GPU's state (fake_virtio_gpu.c), or NULL */
};

/* A device of a type (VIRTIO_ID_*) offering VERSION_1 only, with one queue of 256 entries,
 * installed on a new handle; NULL on failure. */
struct fake_virtio *fake_virtio_create(enum fake_virtio_interface interface, UINT16 type);
/* A virtio-blk device of sectors 512-byte sectors, filled with fake_virtio_disk_byte,
 * offering VERSION_1, SIZE_MAX (64 KiB), SEG_MAX (126), BLK_SIZE (512), FLUSH, TOPOLOGY,
 * CONFIG_WCE, and two features the driver must not take (INDIRECT_DESC, EVENT_IDX). */
struct fake_virtio *fake_virtio_blk_create(enum fake_virtio_interface interface, UINT64 sectors);
/* A virtio-rng device: one queue of 64 entries. */
struct fake_virtio *fake_virtio_rng_create(enum fake_virtio_interface interface);
/* The virtio GPU's control queue served (fake_virtio_gpu.c): one chain, its request in the
 * readable buffers, the answer written into the first writable one; the bytes written. */
UINT32 fake_virtio_gpu_serve(struct fake_virtio *d, struct fake_virtio_buf *bufs, UINT16 count,
			     bool bad);
/* A device reset destroys a virtio GPU's resources and disables its scanout. */
void fake_virtio_gpu_reset(struct fake_virtio_gpu *gpu);
/* Frees a virtio GPU's state. */
void fake_virtio_gpu_free(struct fake_virtio_gpu *gpu);
/* Disconnects the drivers, removes the handle, frees everything. */
void fake_virtio_destroy(struct fake_virtio *d);

/* Records a driver mistake the device model saw, with the value that shows it. */
void fake_virtio_error(struct fake_virtio *d, const char *what, UINT64 value);
/* Device-configuration writes (little-endian). */
void fake_virtio_set_config(struct fake_virtio *d, UINT32 offset, UINT32 size, UINT64 value);
/* Writes a virtio vendor capability at config-space offset at, linked to next. */
void fake_virtio_set_cap(struct fake_virtio *d, UINT8 at, UINT8 next, UINT8 cfg_type, UINT8 bar,
			 UINT32 offset, UINT32 length);
/* Gives the function other IDs: vendor, device and subsystem. */
void fake_virtio_set_ids(struct fake_virtio *d, UINT16 vendor, UINT16 device, UINT16 subsystem);
/* Takes back the faults injected in the device and its function, and the capability list
 * a test took away. */
void fake_virtio_clear_faults(struct fake_virtio *d);
/* Waits until a late completion (faults.late_us) has run. */
void fake_virtio_settle(struct fake_virtio *d);
/* The device forgets its status and queues on its own (as after a hot reset): later
 * notifications are ignored. */
void fake_virtio_lose_state(struct fake_virtio *d);

/* Byte n of the initial disk contents and of the entropy sequence. */
UINT8 fake_virtio_disk_byte(UINT64 n);
UINT8 fake_virtio_rng_byte(UINT64 n);

/* The device model's own (fake_virtio_serve.c): a notification of queue index, served at
 * once or later from another thread (faults.late_us), unless the device lost its state;
 * and whether a queue's ring lies in memory mapped for the device (an error is recorded
 * when not). */
void fake_virtio_notify(struct fake_virtio *d, UINT16 index);
bool fake_virtio_ring_mapped(struct fake_virtio *d, const struct fake_virtio_queue *q);

/* The built-in driver named name (its ComponentName2 driver name); the drivers are
 * installed first if they are not yet. */
EFI_DRIVER_BINDING_PROTOCOL *fake_virtio_driver(const CHAR16 *name);

#endif
