/** How the UI names a namespace in a list: its name, and its key when that differs. */
export const namespaceLabel = (ns: { key: string; name: string }): string => (ns.name === '' || ns.name === ns.key ? ns.key : `${ns.name} (${ns.key})`);
