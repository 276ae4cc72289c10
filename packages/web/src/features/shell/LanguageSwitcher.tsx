import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { languageNames, languages, localizePath, splitLanguage } from '../../i18n/languages';
import { useLanguage } from '../../i18n/useLanguage';
import { Menu } from '../../ui/Menu';

/** The same page in another language: only the URL prefix changes. */
export function useLanguageLinks(): { language: string; name: string; to: string }[] {
  const location = useLocation();
  const { path } = splitLanguage(location.pathname);
  return languages.map((language) => ({
    language,
    name: languageNames[language],
    to: localizePath(path + location.search + location.hash, language),
  }));
}

export function LanguageSwitcher() {
  const { t } = useTranslation();
  const current = useLanguage();
  const links = useLanguageLinks();
  return (
    <Menu label={current.toUpperCase()} ariaLabel={t('nav.language')} align="end">
      {links.map((link) => (
        <Link
          key={link.language}
          to={link.to}
          lang={link.language}
          aria-current={link.language === current ? 'true' : undefined}
        >
          {link.name}
        </Link>
      ))}
    </Menu>
  );
}
