/* QEMU's ramfb display (-device ramfb) published over fw_cfg, on both QEMU platforms. */
#ifndef EMBER_QEMU_RAMFB_H
#define EMBER_QEMU_RAMFB_H

/* Publishes ramfb's Graphics Output Protocol when QEMU has the device. Called once the
 * variables are started: the mode it starts in is the ConsoleResolution setting's. */
void qemu_ramfb_start(void);

#endif
