/** Downloads a namespace as a Flipt YAML document (fetched with the caller's credential, then saved from memory). */
import { useMutation } from '@tanstack/react-query';
import { namespaces } from '../../api/endpoints.js';
import { useToast } from '../../components/toast.js';
import { exportFileName } from '../../lib/document-import.js';

/** Long enough for the browser to start the download before the blob's URL is let go. */
const URL_LIFETIME_MS = 60_000;

function save(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), URL_LIFETIME_MS);
}

/** `mutate(namespaceKey)` downloads `<key>.yaml`; a failure is shown as a notice. */
export function useExportNamespace() {
  const toast = useToast();
  return useMutation({
    mutationFn: async (key: string) => {
      save(await namespaces.export(key), exportFileName(key));
      return key;
    },
    onSuccess: (key) => toast(`Namespace "${key}" exported`),
    onError: (error) => toast(`Export failed: ${error.message}`, 'error'),
  });
}
