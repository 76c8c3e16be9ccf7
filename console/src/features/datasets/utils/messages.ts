/** The dataset screens' texts, as the spec words them (spec 001 §5, §6, §8). */
export const DATASET_MESSAGES = {
  emptyName: 'Empty name not allowed',
  emptyDescription: 'Empty description not allowed',
  /**
   * Why the two forms differ (spec 001 §5: an upload needs a name; an edit needs name and
   * description), shown under each form's description.
   */
  descriptionOnCreate: 'Optional now, but needed to edit the dataset later.',
  descriptionOnEdit: 'Required to save changes: say what the dataset holds.',
  created: 'Dataset Created Successfully',
  /** '{type} updated!' (spec 000 §8). */
  updated: 'Dataset updated!',
  /** 'Update {type} failed' (spec 000 §7). */
  updateFailed: 'Update Dataset failed',
  deleted: 'Dataset Deleted!',
  deleteConfirm: 'Are you sure you want to delete this item?',
  filesDeleted: 'File(s) Deleted!',
  folderCreated: 'Folder created',
} as const;
