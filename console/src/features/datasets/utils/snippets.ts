import { extensionOf } from '@/features/datasets/utils/files';

/** The project secret the snippets read the caller's API key from. */
export const API_KEY_VARIABLE = 'LUDIS_API_KEY';

export type SnippetLanguage = 'python' | 'r' | 'bash';
export const SNIPPET_LANGUAGES: { value: SnippetLanguage; label: string }[] = [
  { value: 'python', label: 'Python' },
  { value: 'r', label: 'R' },
  { value: 'bash', label: 'Bash' },
];

function pythonString(s: string) {
  return JSON.stringify(s);
}

/** R and Python take the same double-quoted escapes for what a URL or file name holds. */
const rString = pythonString;

function shellWord(s: string) {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function pythonReader(ext: string): string[] {
  switch (ext) {
    case '.csv':
      return ['df = pd.read_csv(io.BytesIO(data))', 'print(df.head())'];
    case '.json':
      return ['df = pd.read_json(io.BytesIO(data))', 'print(df.head())'];
    case '.xlsx':
    case '.xls':
      return ['df = pd.read_excel(io.BytesIO(data))', 'print(df.head())'];
    case '.xml':
      return ['df = pd.read_xml(io.BytesIO(data))', 'print(df.head())'];
    default:
      return ['text = data.decode("utf-8")', 'print(text[:500])'];
  }
}

function rReader(ext: string): string[] {
  switch (ext) {
    case '.csv':
      return ['df <- read.csv(path)', 'head(df)'];
    case '.json':
      return ['df <- jsonlite::fromJSON(path)', 'head(df)'];
    case '.xlsx':
    case '.xls':
      return ['df <- readxl::read_excel(path)', 'head(df)'];
    case '.xml':
      return ['doc <- xml2::read_xml(path)', 'doc'];
    default:
      return ['text <- readLines(path)', 'head(text)'];
  }
}

/**
 * Code that reads one dataset file from a project's container (spec 001 §2 "datasets … with code
 * snippets in Python, R, Bash"). It fetches the file's permanent URL (GET
 * /v1/datasets/download/{id}?path=…, which answers with a redirect to a fresh presigned download)
 * with the caller's API key from the project secret LUDIS_API_KEY; the key is not sent on to the
 * storage server the URL redirects to (Python) and access is checked on every use.
 */
export function datasetSnippet(language: SnippetLanguage, permanentUrl: string, fileKey: string): string {
  const name = fileKey.split('/').pop() || 'data';
  const ext = extensionOf(name);
  switch (language) {
    case 'python':
      return [
        'import io, os, urllib.request',
        ...(pythonReader(ext)[0].startsWith('df') ? ['import pandas as pd'] : []),
        '',
        `# Your API key (profile settings), saved as the project secret ${API_KEY_VARIABLE}.`,
        `url = ${pythonString(permanentUrl)}`,
        'request = urllib.request.Request(url)',
        `request.add_unredirected_header("x-api-key", os.environ["${API_KEY_VARIABLE}"])`,
        'with urllib.request.urlopen(request) as answer:',
        '    data = answer.read()',
        ...pythonReader(ext),
      ].join('\n');
    case 'r':
      return [
        `# Your API key (profile settings), saved as the project secret ${API_KEY_VARIABLE}.`,
        `url <- ${rString(permanentUrl)}`,
        `path <- file.path(tempdir(), ${rString(name)})`,
        `download.file(url, path, mode = "wb", headers = c("x-api-key" = Sys.getenv("${API_KEY_VARIABLE}")))`,
        ...rReader(ext),
      ].join('\n');
    case 'bash':
      return [
        `# Your API key (profile settings), saved as the project secret ${API_KEY_VARIABLE}.`,
        `curl -fsSL -H "x-api-key: $${API_KEY_VARIABLE}" ${shellWord(permanentUrl)} -o ${shellWord(name)}`,
      ].join('\n');
  }
}
