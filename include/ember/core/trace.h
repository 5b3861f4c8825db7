/* `ember-run --trace`: every boot and runtime service call a program makes, with its
 * arguments and status, on the log channel. The tables are wrapped, so the core's own
 * internal calls never show. Hosted only: the QEMU image does not link it. */
#ifndef EMBER_TRACE_H
#define EMBER_TRACE_H

/* Replaces the entries of the boot and runtime services tables with tracing wrappers. */
void trace_install(void);

#endif
