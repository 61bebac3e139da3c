/*
 * CPE 2.3 names for products we identify, vendor:product as NVD spells them, so version-based
 * CVE matching finds the right records. OpenSSH's "7.2p2" is split the way NVD does it
 * (version 7.2, update p2).
 */
const VENDOR_PRODUCT: Record<string, string> = {
  openssh: "openbsd:openssh",
  vsftpd: "vsftpd_project:vsftpd",
  proftpd: "proftpd:proftpd",
  "pure-ftpd": "pureftpd:pure-ftpd",
  postfix: "postfix:postfix",
  exim: "exim:exim",
  redis: "redis:redis",
  memcached: "memcached:memcached",
  mysql: "oracle:mysql",
  mariadb: "mariadb:mariadb",
  mongodb: "mongodb:mongodb",
  elasticsearch: "elastic:elasticsearch",
  nginx: "f5:nginx",
  apache: "apache:http_server",
  "apache httpd": "apache:http_server",
  "microsoft-iis": "microsoft:internet_information_services",
  lighttpd: "lighttpd:lighttpd",
  openresty: "openresty:openresty",
  dropbear: "dropbear_ssh_project:dropbear_ssh",
};

const escapeCpe = (s: string) => s.replace(/([\\:*?!"#$%&'()+,/;<=>@[\]^`{|}~])/g, "\\$1");

export function cpeFor(product: string | undefined, version: string | undefined): string | undefined {
  if (!product || !version) return undefined;
  const vp = VENDOR_PRODUCT[product.toLowerCase()];
  if (!vp) return undefined;
  let v = version;
  let update = "*";
  const ssh = /^(\d+\.\d+)(p\d+)$/.exec(version);
  if (vp === "openbsd:openssh" && ssh) {
    v = ssh[1]!;
    update = ssh[2]!;
  }
  return `cpe:2.3:a:${vp}:${escapeCpe(v)}:${update}:*:*:*:*:*:*`;
}
