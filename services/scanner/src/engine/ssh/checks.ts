import { check } from "../catalogue.js";

/* Handles on the SSH algorithm checks; their text is data in services/scanner/checks/ssh.yaml. */

export const TERRAPIN = check("ssh-terrapin");
export const WEAK_KEX = check("ssh-weak-kex");
export const WEAK_HOSTKEY = check("ssh-weak-hostkey");
export const WEAK_CIPHERS = check("ssh-weak-ciphers");
export const WEAK_MACS = check("ssh-weak-macs");
export const PASSWORD_AUTH = check("ssh-password-auth");
