/** The project screens' texts, as the spec words them (spec 000 §5, §8; spec 001 §4–§6, §8). */
export const PROJECT_MESSAGES = {
  invalidName: 'Project name can only contain letters, numbers, underscores, hyphens, and periods',
  emptyName: 'Empty project name not allowed.',
  deleteConfirm: 'Are you sure you want to delete this Project?',
  deleted: 'Project Deleted!',
  created: 'Project Created Successfully',
  /** '{type} updated!' and 'Update {type} failed' (spec 000 §7, §8). */
  updated: 'Project updated!',
  updateFailed: 'Update Project failed',
  committed: 'Commit successful',
  fileDeleted: 'File deleted',
  leaveUnsaved: 'You have unsaved changes, are you sure you want to leave?',
  invalidEnvVar: 'Please add valid inputs',
  appCreated: 'App Created Successfully',
  invalidRepoUrl: 'Please enter the HTTPS address of a git repository, like https://github.com/owner/repo',
  emptyFileName: 'Please enter a file name',
  invalidFilePath: 'A file name may not start with /, contain .. or name a .git folder',
  emptyInsightName: 'Empty name not allowed',
  selectFile: 'Please select a file',
  selectApp: 'Please select an app to replace',
  aiUnavailable: 'The AI assistant is not available here',
  workflowsLater: 'Workflows arrive with the workflows feature',
} as const;
