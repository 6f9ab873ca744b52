import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../tools/json-schema.js';
import {
  ANY_FORMAT,
  addOutputFileBonus,
  FileFormat,
  requestOutputFormats,
  toolOutputFormats,
} from './output-files.js';
import type { ToolReference } from './tool-reference.js';

const { MARKDOWN, WORD, SLIDES, SPREADSHEET, PDF, IMAGE, HTML, CODE, DATA, AUDIO } = FileFormat;

describe('requestOutputFormats', () => {
  it.each([
    ['Generate a deep report of bitcoin and save it in /root/markdown/bitcoin.md', MARKDOWN],
    ['What are the treatments? Write the report to ~/notes/cancer.md?', MARKDOWN],
    ['Make a web page about the history of AI saved at /root/html/ai.html.', HTML],
    ['Save this information to /root/excel/goods.xlsx.', SPREADSHEET],
    ['Then, draft an intro document for it in /root/markdown/github_trends.md.', MARKDOWN],
    ['Give me a markdown report on /root/markdown/baidu.md with whois information', MARKDOWN],
    ['Generate a PDF report titled trends.pdf in /root/pdf, summarizing trends', PDF],
    ['plot it as a bar chart and save it to C:\\out\\chart.png', IMAGE],
    ['a Python example; save it to ./code/cnn_example.py', CODE],
    ['read a.csv and write the totals to totals.json', DATA],
    ['Export the table as CSV', SPREADSHEET],
    ['Convert the reference list into a Word document', WORD],
    ['Analyze the stock and summarize it in a PPT', SLIDES],
    ['Help me write a tutorial in markdown', MARKDOWN],
    ['Convert /root/word/CV.docx to PDF', PDF],
    ['save it as slides.pptx and the notes as notes.md', SLIDES | MARKDOWN],
  ])('%s', (text, formats) => {
    expect(requestOutputFormats(text)).toBe(formats);
  });

  it.each([
    // Files the request reads.
    'Read the sales data under /root/excel/sales.xlsx and tell me the total',
    'Analyze the audio file located at /root/music/alarm.wav',
    'Get line 10 of /root/txt/Android.txt',
    'Read the paper in /root/pdf/WebArena.pdf, and find the latest papers in this area',
    'Create a chart from /root/data/sales.csv',
    'Convert /root/word/CV.docx and merge it',
    'Done. Upload it to /root/site/index.html',
    // A verb of the previous sentence does not reach into the next.
    'Save the results. The input is in /root/data/input.csv',
    // No known file: a folder, a route, a URL, dates, a version, a domain.
    'What files are in my /root/music folder?',
    'save it to /root/output/',
    'redirect unauthenticated users to `/login`',
    'Download https://example.com/files/report.pdf',
    'book a house from 05/12/2023 to 05/18/2023',
    'upgrade to 3.5 and visit www.example.com',
    // A format word that only qualifies a noun.
    'I need a PDF reader',
    'find images of cats',
    '',
  ])('%s: none', (text) => {
    expect(requestOutputFormats(text)).toBe(0);
  });
});

const tool = (
  toolName: string,
  summary: string,
  properties: Record<string, JsonSchema> = {},
): ToolReference => ({
  toolName,
  summary,
  inputSchema: { type: 'object', properties },
});
const text = { type: 'string' };

describe('toolOutputFormats', () => {
  it.each([
    [
      tool('write_file', 'Create a new file or overwrite an existing file with new content.', {
        path: text,
        content: text,
      }),
      ANY_FORMAT,
    ],
    [tool('create_presentation', 'Create a new PowerPoint presentation.', { id: text }), SLIDES],
    [
      tool('save_presentation', 'Save a presentation to a file.', {
        file_path: text,
        presentation_id: text,
      }),
      SLIDES,
    ],
    [tool('docx_to_pdf', 'Convert a Word document to PDF.', { input_path: text }), PDF],
    [
      tool('excel_write_to_sheet', 'Write values to the Excel sheet', {
        fileAbsolutePath: text,
        values: { type: 'array' },
      }),
      SPREADSHEET,
    ],
    [
      tool('create_document', 'Create a new Word document with optional metadata.', {
        filename: text,
        title: text,
      }),
      WORD,
    ],
    [
      tool('generate_sound_wave', 'Generates a sound wave and saves it to a WAV file.', {
        frequency: { type: 'number' },
      }),
      AUDIO,
    ],
  ])('%o', (reference, formats) => {
    expect(toolOutputFormats(reference)).toBe(formats);
  });

  it.each([
    tool('read_file', 'Read the complete contents of a file.', { path: text }),
    tool('generate_bar_chart', 'Generate a bar chart to compare categories.', { data: text }),
    tool('create_directory', 'Create a new directory.', { path: text }),
    tool('create_entities', 'Create entities in the knowledge graph.', { entities: text }),
    tool('html_to_text', 'Convert HTML to plain text.', { html: text }),
    tool('add_footnote_to_document', 'Add a footnote to a document.', {
      filename: text,
      text,
    }),
    tool('generate_flow_diagram', 'Generate a flow diagram, such as a process presentation.', {
      data: text,
    }),
    tool('video_games.store_price', 'Fetch the price of a video game in a store.', {
      game: text,
    }),
    tool('weather', 'Current weather'),
  ])('%o: none', (reference) => {
    expect(toolOutputFormats(reference)).toBe(0);
  });
});

describe('addOutputFileBonus', () => {
  it('adds the second-best score to the tools writing a requested format or any format', () => {
    const scores = Float64Array.of(3, 2, 1, 0.5, 0.25);
    const formats = Uint16Array.of(0, ANY_FORMAT, SLIDES, MARKDOWN, MARKDOWN | PDF);
    addOutputFileBonus(scores, formats, MARKDOWN);
    expect([...scores]).toEqual([3, 4, 1, 2.5, 2.25]);
  });

  it('scales to the second-best score among the tools the category filter keeps', () => {
    const scores = Float64Array.of(8, 6, 2, 1);
    addOutputFileBonus(scores, Uint16Array.of(0, 0, 0, PDF), PDF, Uint8Array.of(0, 1, 1, 1));
    expect([...scores]).toEqual([8, 6, 2, 3]);
  });

  it('changes nothing for a request that names no destination', () => {
    const scores = Float64Array.of(3, 2, 1);
    addOutputFileBonus(scores, Uint16Array.of(ANY_FORMAT, SLIDES, 0), 0);
    expect([...scores]).toEqual([3, 2, 1]);
  });

  it('scales to the best score when it is the only one, and to 1 when none is positive', () => {
    const single = Float64Array.of(0, 4, 0);
    addOutputFileBonus(single, Uint16Array.of(ANY_FORMAT, 0, 0), IMAGE);
    expect([...single]).toEqual([4, 4, 0]);
    const none = Float64Array.of(0, 0);
    addOutputFileBonus(none, Uint16Array.of(0, IMAGE), IMAGE);
    expect([...none]).toEqual([0, 1]);
  });
});
