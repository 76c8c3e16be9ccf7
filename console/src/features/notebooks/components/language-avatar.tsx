import { Avatar } from '@mantine/core';
import { IconBrandPython } from '@tabler/icons-react';

import type { Language } from '@/lib/api/types';

/** A legacy project's image: its language (Python or R). */
export function LanguageAvatar({ language, size = 36 }: { language: Language; size?: number }) {
  const label = language === 'r' ? 'R' : 'Python';
  return (
    <Avatar size={size} radius="md" color={language === 'r' ? 'blue' : 'yellow'} variant="light" role="img" aria-label={label}>
      {language === 'r' ? 'R' : <IconBrandPython size={size * 0.6} />}
    </Avatar>
  );
}
