import { downloadDatasetFile, saveBlob, uploadDatasetFile } from '@/features/datasets/api/transfer';
import type { TransferJob } from '@/features/datasets/components/use-transfers';
import { baseName } from '@/features/datasets/utils/files';

/** Each file uploaded into the folder `prefix` of dataset `id` under its own name. */
export function uploadJobs(id: string, prefix: string, files: File[]): TransferJob[] {
  return files.map((file) => ({
    name: file.name,
    size: file.size,
    run: (onProgress, signal) => uploadDatasetFile(id, `${prefix}${file.name}`, file, onProgress, signal),
  }));
}

/** Each file downloaded and handed to the browser as soon as it arrives. */
export function downloadJobs(id: string, files: { key: string; size: number }[]): TransferJob[] {
  return files.map((f) => ({
    name: baseName(f.key),
    size: f.size,
    run: async (onProgress, signal) => {
      const blob = await downloadDatasetFile(id, f.key, onProgress, signal, f.size);
      saveBlob(blob, baseName(f.key));
    },
  }));
}
