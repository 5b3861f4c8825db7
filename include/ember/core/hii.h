/* The HII database (core/hii): EFI_HII_DATABASE_PROTOCOL, EFI_HII_STRING_PROTOCOL,
 * EFI_HII_CONFIG_ROUTING_PROTOCOL and EFI_FORM_BROWSER2_PROTOCOL. */
#ifndef EMBER_CORE_HII_H
#define EMBER_CORE_HII_H

#include <efi/status.h>

/* Publishes the protocols on a handle of their own (an init step; once). */
EFI_STATUS hii_publish(void);

#endif
